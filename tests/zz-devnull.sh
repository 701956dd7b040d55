#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/zz-devnull.sh — runs after every other test (tests/local.mk says
# so): whatever the suite did, /dev/null is still the character device
# the machine needs.
. "$top_srcdir/tests/tap.sh"
[ -c /dev/null ]
ok $? "/dev/null is still a character device after the whole suite"
done_testing
