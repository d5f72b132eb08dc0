#!/bin/bash
# Exit status is the verdict: 0 passes, 1 fails (no reward file needed).
[ "$(cat greeting.txt 2>/dev/null)" = "hello, eval" ]
