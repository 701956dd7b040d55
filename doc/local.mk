# SPDX-License-Identifier: MIT
# The README's before/after timeline picture, regenerated on demand (it
# needs chromium): `make timeline-png` rewrites doc/timeline.png.
timeline-png: all
	$(SHELL) $(srcdir)/doc/timeline-png.sh $(builddir) $(srcdir)
.PHONY: timeline-png
EXTRA_DIST += doc/timeline-png.sh doc/timeline.png doc/tour-timeline.svg

# passline-xla(7): XLA's GPU collective stage and XLA's flags (the rule's
# $(subst_man) is Makefile.am's, as for the other pages).
man7_MANS = doc/passline-xla.7
EXTRA_DIST += doc/passline-xla.7.in
CLEANFILES += doc/passline-xla.7
doc/passline-xla.7: $(srcdir)/doc/passline-xla.7.in Makefile
	$(subst_man)
