#!/bin/sh
# Used by the host to find out whether an accelerator boots at all.
echo "probe: $(uname -r) up"
