#!/bin/bash
# Grades the agent's final answer, which tau eval writes to $LOGS_DIR/agent/response.txt.
mkdir -p "$LOGS_DIR/verifier"
if grep -q "Gadget workshop" "$LOGS_DIR/agent/response.txt" 2>/dev/null; then
	echo 1 > "$LOGS_DIR/verifier/reward.txt"
else
	echo 0 > "$LOGS_DIR/verifier/reward.txt"
fi
