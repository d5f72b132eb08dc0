#!/bin/bash
echo "hello, eval" > greeting.txt
