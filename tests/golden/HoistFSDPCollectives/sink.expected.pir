func @f(%x: f32[8], %gw0: f32[8], %gw1: f32[8]) {
  %a = tensor_contract %x, %x : f32[8]
  %b = tensor_contract %a, %x : f32[8]
  %c = tensor_contract %b, %x : f32[8]
  %r0 = reduce_scatter %gw0 {group_id = "dp", factor = 4, reduce = "add", fsdp = true} : f32[2]
  %r1 = reduce_scatter %gw1 {group_id = "dp", factor = 4, reduce = "add", fsdp = true} : f32[2]
  %u = tensor_contract %r1, %r1 : f32[2]
  %v = tensor_contract %r0, %r0 : f32[2]
  %n = reduce_scatter %c {group_id = "dp", factor = 4, reduce = "add"} : f32[2]
  return %u, %v, %n
}
