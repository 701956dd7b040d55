// a UTF-8 byte order mark is allowed
func @bom(%x: f32[]) {
  return %x
}
