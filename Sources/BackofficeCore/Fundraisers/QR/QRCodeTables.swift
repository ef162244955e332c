/// The numbers ISO/IEC 18004 fixes for each version and error correction level.
enum QRCodeTables {
  static let versions = 1...40

  /// Modules along one side, without the quiet zone.
  static func size(version: Int) -> Int { version * 4 + 17 }

  /// Error correction codewords in each block (Table 9), by level, then version (index 0 unused).
  private static let ecCodewordsPerBlock: [[Int]] = [
    // L
    [
      0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
      28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
    ],
    // M
    [
      0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
      26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
    ],
    // Q
    [
      0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
      28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
    ],
    // H
    [
      0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
      30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
    ],
  ]

  /// Error correction blocks (Table 9), by level, then version (index 0 unused).
  private static let blockCounts: [[Int]] = [
    // L
    [
      0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
      8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25,
    ],
    // M
    [
      0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
      17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
    ],
    // Q
    [
      0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
      23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
    ],
    // H
    [
      0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
      25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
    ],
  ]

  private static func row(_ level: QRCode.ErrorCorrection) -> Int {
    switch level {
    case .low: 0
    case .medium: 1
    case .quartile: 2
    case .high: 3
    }
  }

  static func ecCodewordsPerBlock(version: Int, level: QRCode.ErrorCorrection) -> Int {
    ecCodewordsPerBlock[row(level)][version]
  }

  static func blockCount(version: Int, level: QRCode.ErrorCorrection) -> Int {
    blockCounts[row(level)][version]
  }

  /// All codewords (data and error correction) a version holds: the modules left after the
  /// function patterns, format and version information, in whole bytes (the rest are
  /// remainder bits).
  static func totalCodewords(version: Int) -> Int {
    let side = size(version: version)
    var modules = side * side
    modules -= 3 * 64  // finder patterns with their separators
    modules -= 2 * (side - 16)  // timing patterns between the separators
    modules -= 2 * 15 + 1  // format information twice, and the dark module
    let alignment = alignmentCentres(version: version).count
    if alignment > 0 {
      let patterns = alignment * alignment - 3  // none over the finder patterns
      modules -= patterns * 25
      modules += 2 * (alignment - 2) * 5  // crossings with the timing patterns counted twice
    }
    if version >= 7 { modules -= 2 * 18 }
    return modules / 8
  }

  static func dataCodewords(version: Int, level: QRCode.ErrorCorrection) -> Int {
    totalCodewords(version: version)
      - ecCodewordsPerBlock(version: version, level: level)
      * blockCount(version: version, level: level)
  }

  /// Bits of the byte-mode character count: 8 up to version 9, 16 from version 10.
  static func countBits(version: Int) -> Int { version < 10 ? 8 : 16 }

  /// The most bytes byte mode holds in one symbol (Table 7).
  static func byteCapacity(version: Int, level: QRCode.ErrorCorrection) -> Int {
    (dataCodewords(version: version, level: level) * 8 - 4 - countBits(version: version)) / 8
  }

  /// Row and column coordinates of alignment pattern centres (Annex E): evenly spaced from
  /// the far edge back towards 6, the spacing even and the first gap taking what is left.
  static func alignmentCentres(version: Int) -> [Int] {
    guard version >= 2 else { return [] }
    let count = version / 7 + 2
    let last = size(version: version) - 7
    // Version 32 is the one place the standard's table departs from the rule.
    let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
    var centres = [6]
    for index in (0..<(count - 1)).reversed() {
      centres.append(last - index * step)
    }
    return centres
  }

  /// The 15 format information bits (7.9.1): level and mask, a BCH(15,5) code, then XOR
  /// 101010000010010 so the result is never all light.
  static func formatBits(level: QRCode.ErrorCorrection, mask: Int) -> Int {
    let data = level.formatValue << 3 | mask
    var remainder = data
    for _ in 0..<10 {
      remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537)
    }
    return (data << 10 | remainder) ^ 0x5412
  }

  /// The 18 version information bits (7.10) for versions 7 and up: the version and a
  /// BCH(18,6) code.
  static func versionBits(version: Int) -> Int {
    var remainder = version
    for _ in 0..<12 {
      remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25)
    }
    return version << 12 | remainder
  }
}

extension QRCode.ErrorCorrection {
  /// The two bits format information uses: L 01, M 00, Q 11, H 10.
  var formatValue: Int {
    switch self {
    case .low: 0b01
    case .medium: 0b00
    case .quartile: 0b11
    case .high: 0b10
    }
  }
}
