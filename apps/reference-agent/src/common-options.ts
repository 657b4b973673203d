/** Options every command takes (spec §6). */
export interface CommonOptions {
  /** `--home DIR`: the agent home. @default $SOONG_AGENT_HOME, else ~/.soong-agent */
  home?: string;
  /** `--project DIR`: the project dir. @default the current dir */
  project?: string;
}
