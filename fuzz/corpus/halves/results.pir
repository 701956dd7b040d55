// 0, 1 and many operands and results
func @results(%a: f32[4], %b: i32[]) {
  acme.none
  acme.one_operand %a
  acme.many_operands %a, %b, %a, %b
  %r1 = acme.one_result : f32[4]
  %r2 = acme.paren_single : (f32[4])
  %r3, %r4, %r5 = acme.three %a, %b {k = 1} : (f32[4], i32[], f32[])
  %r6 = acme.ops_and_attrs %r1, %r2 {k = [1]} : bf16[4,4]
  return %r3
}
