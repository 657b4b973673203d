# BASH_ENV / ENV target: reaching a child means the variable leaked.
touch "$SOONG_AGENT_PROJECT_DIR/LEAKED-SHELL-STARTUP-FILE"
