// every kind of attribute value
func @attrs(%x: f32[]) {
  acme.ints {zero = 0, one = 1, neg = -1, min = -9223372036854775808, max = 9223372036854775807, negzero = -0, padded = 007}
  acme.floats {a = 1.5, b = 1e10, c = 2.5e-3, d = -0.0, e = .5, f = 1., g = 1E5, h = 1e+5, i = -1.25e-300, j = 0.1, k = 100.0, l = 1.7976931348623157e308, m = 4.9e-324, n = 123456789.0, o = 0.0, p = -.5, q = 1.e2, r = 0.30000000000000004}
  acme.strings {plain = "hello", empty = "", quote = "say \"hi\"", backslash = "a\\b", newline = "line1\nline2", tab = "a\tb", hex = "\x00\x01\x7f\xff\xFE", utf8 = "héllo wörld — ✓ 𝄞", rawtab = "a	b", letters = "\x41\x62", viaescape = "\xc3\xa9", slashes = "// not a comment"}
  acme.bools {t = true, f = false}
  acme.lists {empty = [], ints = [1, 2, 3], nested = [[1, [2, [3, []]]], ["a", true, 1.5]], mixed = [1, -2.5, "s", false, []]}
  acme.empty {}
  %y = acme.all {i = 7, f = 7.0, s = "7", b = true, l = [7], UpperCase_Key9 = 1, _lead = 2} : f32[]
  return %y
}
