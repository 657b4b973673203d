#!/usr/bin/env bash
# block-destructive-commands.sh: a soong-agent PreToolUse hook for shell tools (`bash`, or any tool
# whose input has a string `command`).
#
# What it does
#   Denies shell commands that destroy a machine or a shared history, and allows everything else:
#     rm-rf-root          rm -r / rm -rf on /, /*, or a top-level system directory (/etc, /usr, ...)
#     rm-rf-home          rm -r / rm -rf on ~, $HOME, ${HOME} or the home directory's real path
#     rm-no-preserve-root rm --no-preserve-root
#     git-force-push-main git push --force / -f / --force-with-lease / +refspec to main or master
#                         (also a bare `git push --force` while the project is on main or master)
#     mkfs                mkfs, mkfs.<type>, mke2fs
#     dd-to-device        dd of=/dev/... (except /dev/null, /dev/zero, /dev/stdout, /dev/stderr, ...)
#     write-to-device     a shell redirection onto a disk device (> /dev/sda, > /dev/nvme0n1, ...)
#     chmod-777-root      chmod -R 777 (or a+rwx) on /, a top-level system directory or the home dir
#     fork-bomb           :(){ :|:& };: and the same shape with any function name
#     curl-pipe-shell     curl ... | sh, wget ... | bash, bash <(curl ...), sh -c "$(curl ...)"
#     unreadable-input    a long command the agent truncated (tool.input_truncated) whose full
#                         text could not be read from tool.input_artifact_ref.path (fail closed)
#   The deny reason names the pattern and quotes the offending part of the command; the pattern id is
#   also in `metadata.pattern`. An allowed command gets an explicit {"decision":"allow"}.
#
# Events
#   PreToolUse, on any tool whose input has a string `command` (`tool.input.command`), whatever the
#   tool is called: the reference agent's `bash`, an AI SDK tool such as `runShell`, an MCP tool. A
#   string command in the input is taken as a shell command. A call without one (write_file, a
#   command that is not a string) and any other event are allowed untouched. The matcher below
#   only saves a process start for other tools: name your shell tool there (`"runShell"`), or leave
#   the matcher out to check every tool.
#
# Configure (hooks.json in the agent home; needs bash and jq on PATH)
#   "PreToolUse": [
#     { "matcher": "bash",
#       "hooks": [ { "type": "command", "name": "block-destructive-commands",
#                    "command": "~/.soong-agent/hooks/block-destructive-commands.sh",
#                    "timeout": 10, "on_failure": "deny" } ] }
#   ]
#   `on_failure: "deny"` makes the agent fail closed when this script cannot run (jq missing,
#   unreadable input): the script then exits 1 with a message on stderr.
#
# Try it
#   echo '{"event":"PreToolUse","tool":{"name":"bash","input":{"command":"rm -rf /"}}}' \
#     | ./block-destructive-commands.sh
#
# Limits
#   - A pattern list, not a sandbox. It reads the command text; it cannot see what a script, a
#     Makefile target, an alias, `xargs`, `find -delete` or a variable other than HOME expands to.
#   - Quotes are removed before matching and `;` `&` `|` `(` `)` `{` `}` and backquotes split the
#     command, so it errs on the side of denying: a destructive command spelled inside a quoted
#     string that another command runs (`bash -c "rm -rf /"`) is caught, and so is one that is only
#     text for a command that is itself split (`git commit -m "x; rm -rf /"`). `echo rm -rf /` is
#     allowed (echo is the command).
#   - Deleting a directory under your home (`rm -rf ~/old-project`) is allowed; only the home itself is
#     protected.
set -uo pipefail -f

readonly HOOK_NAME=block-destructive-commands
readonly SYSTEM_DIRS=' /bin /boot /dev /etc /home /lib /lib32 /lib64 /opt /proc /root /sbin /srv /sys /usr /var '

# Read all of stdin before anything else, so that the agent never sees a broken pipe. (cat, not
# $(</dev/stdin): stdin may be a socket, which cannot be opened by name.)
if ! payload=$(cat); then
  echo "$HOOK_NAME: could not read stdin" >&2
  exit 1
fi

if ! command -v jq >/dev/null 2>&1; then
  echo "$HOOK_NAME: jq is not on PATH ($PATH); install jq (https://jqlang.github.io/jq/)" >&2
  exit 1
fi

# The command on one line, in jq (linear time, no extra processes): line continuations joined,
# quotes and backslashes dropped (they do not change which words a command has), tabs as spaces,
# newlines as `;` (both end a command), runs of spaces as one.
readonly JQ_FLAT_COMMAND='
  def flat_command:
    tostring
    | split("\\\n") | join(" ")
    | explode
    | map(select(. != 34 and . != 39 and . != 92)
          | if . == 9 or . == 13 then 32 elif . == 10 then 59 else . end)
    | implode
    | split(" ") | map(select(. != "")) | join(" ");'

# One jq call: "command" when this is a PreToolUse whose input has a string `command` (whatever the
# tool is called: a shell tool may be `bash`, `runShell`, `run_shell_command`...), else empty;
# project dir, the full input's file when the agent truncated the input, the flattened command,
# and a "." line that keeps an empty last field.
if [[ ! $payload =~ [^[:space:]] ]] || ! fields=$(jq -r "$JQ_FLAT_COMMAND"'
    if type != "object" then error("the input is not a JSON object") else . end
    | ((.tool | objects | .input | objects | .command | strings) // null) as $command
    | (if .event == "PreToolUse" and $command != null then "command" else "" end),
      (.project_dir // "" | tostring),
      (if $command != null and .tool.input_truncated == true
       then .tool.input_artifact_ref.path // "?" else "" end),
      ($command // "" | flat_command),
      "."' <<<"$payload"); then
  echo "$HOOK_NAME: stdin is not a hook input (a JSON object was expected)" >&2
  exit 1
fi
has_command=${fields%%$'\n'*}
rest=${fields#*$'\n'}
project_dir=${rest%%$'\n'*}
rest=${rest#*$'\n'}
full_input_file=${rest%%$'\n'*}
rest=${rest#*$'\n'}
flat=${rest%%$'\n'*}

allow() {
  printf '{"decision":"allow"}\n'
  exit 0
}

# deny PATTERN DESCRIPTION EXCERPT
deny() {
  local excerpt=$3
  if ((${#excerpt} > 200)); then excerpt="${excerpt:0:200}..."; fi
  jq -cn --arg pattern "$1" --arg reason "$HOOK_NAME: denied $2 [$1] in: $excerpt" \
    '{decision: "deny", reason: $reason, metadata: {pattern: $pattern}}'
  exit 0
}

[[ $has_command == command ]] || allow

# A long command reaches hooks with its middle elided; the whole input is in an artifact file.
if [[ -n $full_input_file ]]; then
  if full_flat=$({ jq -er "$JQ_FLAT_COMMAND"'.command | strings | flat_command' <"$full_input_file"; } 2>/dev/null); then
    flat=$full_flat
  else
    deny unreadable-input 'a truncated command whose full text could not be read' "$flat"
  fi
fi
while [[ $flat =~ \$\{([A-Za-z_][A-Za-z0-9_]*)\} ]]; do # ${HOME} -> $HOME
  flat=${flat//"${BASH_REMATCH[0]}"/\$${BASH_REMATCH[1]}}
done

# --- whole-command patterns (they span several simple commands) -------------------------------
rest=$flat
re_function='(^|[^A-Za-z0-9_:.-])([A-Za-z_:.][A-Za-z0-9_:.-]*) ?\( ?\) ?\{(.*)$'
while [[ $rest =~ $re_function ]]; do
  name=${BASH_REMATCH[2]}
  rest=${BASH_REMATCH[3]}
  name_pattern=${name//./\\.}
  re_self_pipe="(^|[^A-Za-z0-9_:.-])$name_pattern ?\\| ?$name_pattern([^A-Za-z0-9_:.-]|\$)"
  if [[ $rest =~ $re_self_pipe ]]; then
    deny fork-bomb 'a fork bomb (a function that pipes into itself in the background)' "$flat"
  fi
done

re_pipe_shell='(^|[^A-Za-z0-9_-])(curl|wget)( [^|;&]*)? ?\| ?(sudo ([^ ]+ )*)?([^ ]*/)?(ba|z|da|k|fi)?sh( |$|[;&|)])'
re_subst_shell='(^|[^A-Za-z0-9_-])((ba|z|da|k|fi)?sh|source|\.)( -[A-Za-z]+)* ?(<\(|\$\() ?(curl|wget)( |\))'
if [[ $flat =~ $re_pipe_shell || $flat =~ $re_subst_shell ]]; then
  deny curl-pipe-shell 'piping a download into a shell (curl ... | sh)' "$flat"
fi

re_device='> ?/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme[0-9]|mmcblk[0-9]|disk[0-9]|md[0-9]|dm-[0-9]|mapper/)'
if [[ $flat =~ $re_device ]]; then
  deny write-to-device 'a redirection onto a disk device' "$flat"
fi

# --- per simple command ------------------------------------------------------------------------

# Sets `kind` to the kind of protected target ("root", "home") or to nothing.
target_kind() {
  local target=$1 previous=
  while [[ $target != "$previous" ]]; do
    previous=$target
    target=${target//\/\//\/}
    case $target in
    */\*) target=${target%/\*} ;;
    */.) target=${target%/.} ;;
    ?*/) target=${target%/} ;;
    esac
  done
  [[ -z $target ]] && target=/
  kind=
  if [[ $target == / || $target == /.. || $SYSTEM_DIRS == *" $target "* ]]; then
    kind=root
  elif [[ $target == '~' || $target == '$HOME' ]]; then
    kind=home
  elif [[ -n ${HOME:-} && $HOME != / && $target == "${HOME%/}" ]]; then
    kind=home
  fi
}

check_rm() {
  local recursive=0 end_of_options=0 argument kind
  local -a targets=()
  for argument in "$@"; do
    if ((end_of_options)); then
      targets+=("$argument")
      continue
    fi
    case $argument in
    --) end_of_options=1 ;;
    --no-preserve-root) deny rm-no-preserve-root 'rm --no-preserve-root' "$segment" ;;
    --recursive) recursive=1 ;;
    --*) ;;
    -*[rR]*) recursive=1 ;;
    -?*) ;;
    *) targets+=("$argument") ;;
    esac
  done
  ((recursive)) || return 0
  for argument in "${targets[@]}"; do
    target_kind "$argument"
    case $kind in
    root) deny rm-rf-root "a recursive delete of $argument (rm -rf /)" "$segment" ;;
    home) deny rm-rf-home "a recursive delete of the home directory $argument (rm -rf ~)" "$segment" ;;
    esac
  done
}

check_chmod() {
  local recursive=0 mode= argument kind
  local -a targets=()
  for argument in "$@"; do
    case $argument in
    --recursive) recursive=1 ;;
    --*) ;;
    -*R*) recursive=1 ;;
    -?*) ;;
    *) if [[ -z $mode ]]; then mode=$argument; else targets+=("$argument"); fi ;;
    esac
  done
  ((recursive)) || return 0
  [[ $mode =~ ^0*[0-7]?777$ || $mode =~ ^[ugoa]*[+=]rwx$ ]] || return 0
  for argument in "${targets[@]}"; do
    target_kind "$argument"
    if [[ -n $kind ]]; then
      deny chmod-777-root "making $argument world-writable recursively (chmod -R 777 /)" "$segment"
    fi
  done
}

check_dd() {
  local argument
  for argument in "$@"; do
    case $argument in
    of=/dev/null | of=/dev/zero | of=/dev/stdout | of=/dev/stderr | of=/dev/tty | of=/dev/fd/*) ;;
    of=/dev/*) deny dd-to-device "dd writing to the device ${argument#of=} (dd of=/dev/...)" "$segment" ;;
    esac
  done
}

is_main_branch() {
  local reference=${1#+}
  reference=${reference#refs/heads/}
  [[ $reference == main || $reference == master ]]
}

check_git() {
  local -a arguments=("$@")
  local index=0 count=$# force=0 remote= argument destination branch
  local -a refspecs=()
  # git's own options come before the subcommand; -C and -c take a value.
  while ((index < count)); do
    case ${arguments[index]} in
    -C | -c) index=$((index + 2)) ;;
    -*) index=$((index + 1)) ;;
    *) break ;;
    esac
  done
  [[ ${arguments[index]:-} == push ]] || return 0
  for argument in "${arguments[@]:index+1}"; do
    case $argument in
    --force | --force-with-lease | --force-with-lease=*) force=1 ;;
    --*) ;;
    -*f*) force=1 ;;
    -?*) ;;
    *)
      if [[ -z $remote ]]; then remote=$argument; else refspecs+=("$argument"); fi
      ;;
    esac
  done
  for argument in "${refspecs[@]}"; do
    destination=${argument##*:}
    if [[ $argument == +* ]] || ((force)); then
      if is_main_branch "$destination"; then
        deny git-force-push-main "a force push to ${destination#+} (git push --force to main/master)" "$segment"
      fi
    fi
  done
  if ((force)) && ((${#refspecs[@]} == 0)) && [[ -n $project_dir ]]; then
    branch=$(git -C "$project_dir" symbolic-ref --short -q HEAD 2>/dev/null) || branch=
    if is_main_branch "$branch"; then
      deny git-force-push-main "a force push of the current branch $branch (git push --force to main/master)" "$segment"
    fi
  fi
}

check_segment() {
  local -a words
  # shellcheck disable=SC2206 # split on spaces on purpose; globbing is off (set -f)
  words=($segment)
  local index=0 count=${#words[@]} word
  # Skip what runs the real command: sudo, env, assignments, `bash -c`, `eval`, keywords.
  while ((index < count)); do
    word=${words[index]}
    case $word in
    sudo | doas)
      index=$((index + 1))
      while ((index < count)) && [[ ${words[index]} == -* ]]; do
        case ${words[index]} in
        -u | -g | -C | -D | -h | -p | -r | -t | -U) index=$((index + 2)) ;;
        *) index=$((index + 1)) ;;
        esac
      done
      ;;
    env | nice | nohup | time | command | builtin | exec | eval | then | do | else | if | while | until | '!')
      index=$((index + 1))
      while ((index < count)) && [[ ${words[index]} == -* ]]; do
        case ${words[index]} in
        -n | -u | -C | -S) index=$((index + 2)) ;;
        *) index=$((index + 1)) ;;
        esac
      done
      ;;
    sh | bash | zsh | dash | ksh | */sh | */bash | */zsh | */dash | */ksh)
      # `bash -c CMD`: CMD (its quotes already removed) is the command to look at.
      [[ ${words[index + 1]:-} == -*c* ]] || return 0
      index=$((index + 2))
      ;;
    [A-Za-z_]*=*) index=$((index + 1)) ;;
    *) break ;;
    esac
  done
  ((index < count)) || return 0
  local program=${words[index]##*/}
  local -a arguments=("${words[@]:index+1}")
  case $program in
  rm) check_rm "${arguments[@]}" ;;
  chmod) check_chmod "${arguments[@]}" ;;
  dd) check_dd "${arguments[@]}" ;;
  git) check_git "${arguments[@]}" ;;
  mkfs | mkfs.* | mke2fs) deny mkfs 'creating a file system (mkfs)' "$segment" ;;
  esac
}

# Split into simple commands (globbing is off, so this is a plain split).
IFS=';&|(){}`'
# shellcheck disable=SC2206
segments=($flat)
IFS=$' \t\n'
for segment in "${segments[@]}"; do
  segment=${segment# }
  # Only commands that name a checked program need the word-by-word look.
  case $segment in *rm* | *chmod* | *dd* | *git* | *mk*) check_segment ;; esac
done

allow
