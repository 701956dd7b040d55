func @f(%x: f32[4], %z: f32[4]) {
  %y = acme.add %x,