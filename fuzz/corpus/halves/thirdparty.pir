// third-party ops and attributes are kept; a value list followed by '='
// always begins the next instruction
func @thirdparty(%p: f32[8], %q: f32[8]) {
  %g = acme.fused_gelu %p {acme_mode = "tanh", approximate = true, weird_list = [[]]} : f32[8]
  acme.barrier %v = acme.zero : f32[]
  acme.barrier
  %w = acme.zero : f32[]
  acme.use %g, %q %u1, %u2 = acme.pair %p : (f32[8], f32[8])
  acme.use %g
  %x1 = acme.op.with.many.dots %u1 : f32[8]
  acme.barrier %a2, %b2 = acme.pair %q : (f32[8], f32[8])
  acme.barrier {note = "attrs end it"} %c2 = acme.zero : f32[]
  acme.barrier
  %d2,
  %e2 = acme.pair %q : (f32[8], f32[8])
  _under.score9 %a2 {}
  %ag = all_gather %p {group_id = "dp", factor = 2, custom_thing = [1, "two"], acme_prio = 3} : f32[16]
}
