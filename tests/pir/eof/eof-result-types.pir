func @f(%x: f32[4]) {
  %y, %z = acme.split %x : (f32[2], f32[