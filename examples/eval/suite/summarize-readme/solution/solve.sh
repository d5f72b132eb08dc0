#!/bin/bash
# The reference answer, written where the agent's final answer goes.
mkdir -p "$LOGS_DIR/agent"
echo 'This is "# Gadget workshop: a tiny inventory of gadgets".' > "$LOGS_DIR/agent/response.txt"
