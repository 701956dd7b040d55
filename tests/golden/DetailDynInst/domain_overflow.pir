// A predicate counts its domain even when num_dynamic_instances is given
// (DESIGN 3.5); the verifier accepts a domain beyond INT64_MAX points only
// then. [2^32, 2^32] has 2^64 points: it cannot be counted, exit 4.
func @f(%x: f32[4]) {
  %v = acme.op %x {domain = [4294967296, 4294967296], predicate = ["i0 < 3"], num_dynamic_instances = 12} : f32[4]
  return %v
}
