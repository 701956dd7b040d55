# SPDX-License-Identifier: MIT
# The README's before/after timeline picture, regenerated on demand (it
# needs chromium): `make timeline-png` rewrites doc/timeline.png.
timeline-png: all
	$(SHELL) $(srcdir)/doc/timeline-png.sh $(builddir) $(srcdir)
.PHONY: timeline-png
EXTRA_DIST += doc/timeline-png.sh doc/timeline.png
