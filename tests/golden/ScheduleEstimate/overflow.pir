// A function longer than 2^64 - 1 ns: with peak_gflops 1 (overflow.args)
// %a takes 2^64 - 2 ns and %b 2 more, past the clock's range: an error
// naming the function, exit status 4.
func @f(%x: f32[4]) {
  %a = tensor_contract %x, %x {num_dynamic_instances = 9223372036854775807} : f32[4]
  %b = tensor_contract %x, %x {num_dynamic_instances = 1} : f32[4]
  return %a, %b
}
