#!/bin/sh
# denies the first stop of a loop, allows once stop_hook_active is true
if grep -q "\"stop_hook_active\":true"; then echo "{\"decision\":\"allow\"}"; else echo "{\"decision\":\"deny\",\"reason\":\"run the tests first\"}"; fi
