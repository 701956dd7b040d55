// A domain of more than INT64_MAX points is invalid IR, whatever else the
// instruction says (here an explicit num_dynamic_instances): the verifier
// refuses the input before any pass runs, so DetailDynInst never has to
// count it. [2^32, 2^32] has 2^64 points: exit 1, located at the op.
func @f(%x: f32[4]) {
  %v = acme.op %x {domain = [4294967296, 4294967296], predicate = ["i0 < 3"], num_dynamic_instances = 12} : f32[4]
  return %v
}
