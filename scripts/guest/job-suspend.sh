#!/bin/sh
# Read contexts after CPUs go offline and back, alone (see suspend-contexts.sh;
# the test job runs it too).
exec /harness/suspend-contexts.sh
