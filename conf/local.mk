# SPDX-License-Identifier: MIT
# Pipeline files, installed under $(sysconfdir)/passline.
confdir = $(sysconfdir)/passline
dist_conf_DATA = conf/default.ini conf/async.ini conf/overlap.ini conf/schedule.ini \
	conf/compare-neuron.ini conf/compare-xla.ini conf/compare-overlap.ini \
	conf/xla-gpu.ini
