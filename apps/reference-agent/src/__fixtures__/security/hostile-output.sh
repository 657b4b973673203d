# A hook that attacks the terminal and the log: escape sequences (clear screen, retitle, C1 CSI)
# and invalid UTF-8 in its stderr and its deny reason.
cat > /dev/null
printf '\033[31mRED\033]0;pwned-title\007 \377\376 bad bytes\n' >&2
printf '{"decision":"deny","reason":"\\u001b[2J\\u001b]0;title\\u0007CLEARED \\u009b31m \377 end"}\n'
