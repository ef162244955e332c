/// Reed–Solomon error correction codewords as QR codes use them: arithmetic in GF(256) with
/// the field polynomial x⁸ + x⁴ + x³ + x² + 1 and generator roots α⁰ … α^(n−1), α = 2.
enum ReedSolomon {
  /// αⁱ for i in 0..<510, doubled so a sum of two logarithms needs no modulo.
  private static let exponents: [UInt8] = {
    var table = [UInt8](repeating: 0, count: 510)
    var value = 1
    for power in 0..<255 {
      table[power] = UInt8(value)
      table[power + 255] = UInt8(value)
      value <<= 1
      if value & 0x100 != 0 { value ^= 0x11D }
    }
    return table
  }()

  /// The power of α giving each non-zero byte (index 0 unused).
  private static let logarithms: [Int] = {
    var table = [Int](repeating: 0, count: 256)
    for power in 0..<255 { table[Int(exponents[power])] = power }
    return table
  }()

  static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
    guard a != 0, b != 0 else { return 0 }
    return exponents[logarithms[Int(a)] + logarithms[Int(b)]]
  }

  /// The generator polynomial (x − α⁰)(x − α¹)…(x − α^(degree−1)), coefficients from the
  /// highest power down, the leading 1 left out.
  static func generator(degree: Int) -> [UInt8] {
    var coefficients = [UInt8](repeating: 0, count: degree)
    coefficients[degree - 1] = 1
    var root: UInt8 = 1
    for _ in 0..<degree {
      // Multiply by (x − root); in GF(256) subtraction is XOR.
      for index in 0..<degree {
        coefficients[index] = multiply(coefficients[index], root)
        if index + 1 < degree { coefficients[index] ^= coefficients[index + 1] }
      }
      root = multiply(root, 2)
    }
    return coefficients
  }

  /// The error correction codewords for `data`: the remainder of data·x^degree divided by the
  /// generator of that degree.
  static func errorCorrection(for data: some Sequence<UInt8>, degree: Int) -> [UInt8] {
    errorCorrection(for: data, generator: generator(degree: degree))
  }

  static func errorCorrection(for data: some Sequence<UInt8>, generator: [UInt8]) -> [UInt8] {
    var remainder = [UInt8](repeating: 0, count: generator.count)
    for byte in data {
      let factor = byte ^ remainder[0]
      remainder.removeFirst()
      remainder.append(0)
      for index in remainder.indices {
        remainder[index] ^= multiply(generator[index], factor)
      }
    }
    return remainder
  }
}
