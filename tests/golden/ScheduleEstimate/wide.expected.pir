func @f(%x: f32[4]) {
  %a = tensor_contract %x, %x {num_dynamic_instances = 9223372036854775807} : f32[4]
  return %a
}

func @g(%x: f32[4]) {
  %a = tensor_contract %x, %x {num_dynamic_instances = 9223372036854775807} : f32[4]
  return %a
}
