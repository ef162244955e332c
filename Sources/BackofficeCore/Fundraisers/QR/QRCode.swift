/// A QR code (ISO/IEC 18004) for a piece of text, such as a jar link for a poster.
///
/// The text goes in byte mode as UTF-8 without an ECI header (scanners recognise UTF-8 in
/// byte mode; the header only confuses some older ones), in the smallest version from 1 to 40
/// that holds it, with the mask that scores the fewest penalty points. The same text and level
/// always give the same symbol.
///
/// Modules are addressed as `code[x, y]`, `x` the column and `y` the row from the top-left
/// corner. The symbol has no quiet zone: leave 4 light modules around it (`svgGroup` does).
public struct QRCode: Hashable, Sendable {
  /// How much of the symbol can be damaged or covered and still be read. Higher levels need
  /// more modules for the same text.
  public enum ErrorCorrection: Hashable, Sendable, CaseIterable {
    /// About 7 % of the codewords can be restored.
    case low
    /// About 15 %: the usual choice for printed codes.
    case medium
    /// About 25 %.
    case quartile
    /// About 30 %.
    case high
  }

  /// 1–40; the symbol is `4 × version + 17` modules wide.
  public let version: Int
  public let correction: ErrorCorrection
  /// The data mask pattern, 0–7.
  public let mask: Int
  /// Modules along one side, without the quiet zone.
  public let size: Int
  /// Row-major, `true` for dark.
  let modules: [Bool]

  /// Encodes `text` as UTF-8. Throws `QRCodeError.tooLong` when even version 40 cannot hold
  /// it (2331 bytes at level M).
  public init(_ text: String, correction: ErrorCorrection = .medium) throws(QRCodeError) {
    try self.init(bytes: Array(text.utf8), correction: correction)
  }

  /// Encodes `bytes` as they are.
  public init(bytes: [UInt8], correction: ErrorCorrection = .medium) throws(QRCodeError) {
    try self.init(bytes: bytes, correction: correction, minimumVersion: 1, mask: nil)
  }

  /// `minimumVersion` and `mask` let tests build the exact symbol another encoder chose.
  init(
    bytes: [UInt8], correction: ErrorCorrection, minimumVersion: Int, mask forcedMask: Int?
  ) throws(QRCodeError) {
    guard
      let version = Self.version(
        forByteCount: bytes.count, correction: correction, minimum: minimumVersion)
    else {
      throw .tooLong(byteCount: bytes.count, maximum: Self.maximumByteCount(correction: correction))
    }

    let data = Self.dataCodewords(bytes, version: version, correction: correction)
    var matrix = QRCodeMatrix(version: version)
    matrix.place(Self.finalCodewords(data, version: version, correction: correction))

    // Masks are scored before the format information, the dark module and the version
    // information are written: the standard masks and evaluates first (7.8) and adds those
    // afterwards (7.9, 7.10). The lowest total wins; a tie goes to the lower mask number.
    var chosen = (mask: 0, points: Int.max)
    if let forcedMask {
      chosen.mask = forcedMask & 7
    } else {
      for candidate in 0..<8 {
        var trial = matrix
        trial.applyMask(candidate)
        let points = QRCodePenalty(modules: trial.modules, size: trial.size).total
        if points < chosen.points { chosen = (candidate, points) }
      }
    }
    matrix.applyMask(chosen.mask)
    matrix.drawFormat(level: correction, mask: chosen.mask)
    matrix.drawVersion(version)

    self.version = version
    self.correction = correction
    self.mask = chosen.mask
    self.size = matrix.size
    self.modules = matrix.modules
  }

  /// The smallest version from `minimum` up that holds `byteCount` bytes, if any does.
  static func version(forByteCount byteCount: Int, correction: ErrorCorrection, minimum: Int = 1)
    -> Int?
  {
    let first = max(minimum, QRCodeTables.versions.lowerBound)
    guard first <= QRCodeTables.versions.upperBound else { return nil }
    return (first...QRCodeTables.versions.upperBound).first {
      QRCodeTables.byteCapacity(version: $0, level: correction) >= byteCount
    }
  }

  /// The most bytes any QR code holds at `correction` (version 40).
  public static func maximumByteCount(correction: ErrorCorrection = .medium) -> Int {
    QRCodeTables.byteCapacity(version: QRCodeTables.versions.upperBound, level: correction)
  }

  /// Whether the module in column `x`, row `y` is dark. Outside the symbol (the quiet zone)
  /// every module is light.
  public subscript(x: Int, y: Int) -> Bool {
    guard x >= 0, x < size, y >= 0, y < size else { return false }
    return modules[y * size + x]
  }

  // MARK: - Codewords

  /// The data codewords (7.4): byte mode indicator, character count, the bytes, up to four
  /// terminator bits, zero bits to a whole byte, then the pad bytes 0xEC and 0x11 in turn.
  static func dataCodewords(_ bytes: [UInt8], version: Int, correction: ErrorCorrection)
    -> [UInt8]
  {
    let capacity = QRCodeTables.dataCodewords(version: version, level: correction)
    var bits = BitWriter()
    bits.append(0b0100, count: 4)
    bits.append(bytes.count, count: QRCodeTables.countBits(version: version))
    for byte in bytes { bits.append(Int(byte), count: 8) }
    bits.append(0, count: min(4, capacity * 8 - bits.count))
    bits.append(0, count: (8 - bits.count % 8) % 8)
    var codewords = bits.bytes
    var pad: UInt8 = 0xEC
    while codewords.count < capacity {
      codewords.append(pad)
      pad = pad == 0xEC ? 0x11 : 0xEC
    }
    return codewords
  }

  /// The codewords in the order they are placed (7.6): the data split into blocks (the later
  /// blocks one codeword longer when it does not divide evenly), error correction added to
  /// each, then data and error correction each interleaved a codeword per block at a time.
  static func finalCodewords(_ data: [UInt8], version: Int, correction: ErrorCorrection)
    -> [UInt8]
  {
    let blockCount = QRCodeTables.blockCount(version: version, level: correction)
    let ecLength = QRCodeTables.ecCodewordsPerBlock(version: version, level: correction)
    let total = QRCodeTables.totalCodewords(version: version)
    let shortBlocks = blockCount - total % blockCount
    let shortDataLength = total / blockCount - ecLength

    var dataBlocks: [ArraySlice<UInt8>] = []
    var start = data.startIndex
    for index in 0..<blockCount {
      let length = shortDataLength + (index < shortBlocks ? 0 : 1)
      dataBlocks.append(data[start..<(start + length)])
      start += length
    }
    let generator = ReedSolomon.generator(degree: ecLength)
    let ecBlocks = dataBlocks.map { ReedSolomon.errorCorrection(for: $0, generator: generator) }

    var result: [UInt8] = []
    result.reserveCapacity(total)
    for column in 0...shortDataLength {
      for block in dataBlocks where column < block.count {
        result.append(block[block.startIndex + column])
      }
    }
    for column in 0..<ecLength {
      for block in ecBlocks { result.append(block[column]) }
    }
    return result
  }
}

// MARK: - SVG

extension QRCode {
  /// The path data (`d`) of one SVG path filling every dark module, with the symbol's top-left
  /// corner at (`originX`, `originY`) and each module `moduleSize` units square (at least 1).
  ///
  /// Each run of dark modules in a row is a rectangle `M x y h w v h h -w z`, and a run that
  /// repeats on the rows below grows down instead of starting again. Rectangles never
  /// overlap, so either fill rule works. Integers only, so the text is the same everywhere.
  public func svgPath(moduleSize: Int = 1, originX: Int = 0, originY: Int = 0) -> String {
    let unit = max(1, moduleSize)
    var rectangles: [(row: Int, column: Int, width: Int, height: Int)] = []
    // Rectangles still growing, by their first column.
    var open: [Int: (row: Int, width: Int)] = [:]
    for row in 0...size {
      var runs: [Int: Int] = [:]
      var column = 0
      while row < size && column < size {
        guard self[column, row] else {
          column += 1
          continue
        }
        let start = column
        while column < size && self[column, row] { column += 1 }
        runs[start] = column - start
      }
      for (start, rectangle) in open where runs[start] != rectangle.width {
        rectangles.append((rectangle.row, start, rectangle.width, row - rectangle.row))
        open[start] = nil
      }
      for (start, width) in runs where open[start] == nil {
        open[start] = (row, width)
      }
    }
    rectangles.sort { ($0.row, $0.column) < ($1.row, $1.column) }

    var path = ""
    for rectangle in rectangles {
      let width = String(rectangle.width * unit)
      path += "M\(originX + rectangle.column * unit) \(originY + rectangle.row * unit)"
      path += "h\(width)v\(rectangle.height * unit)h-\(width)z"
    }
    return path
  }

  /// Side of `svgGroup`'s square: the symbol and its quiet zone on both sides.
  public func svgSide(moduleSize: Int, quietZone: Int = 4) -> Int {
    (size + 2 * max(0, quietZone)) * max(1, moduleSize)
  }

  /// A `<g>` holding a light square for the symbol and its quiet zone (`quietZone` modules on
  /// each side, 4 as the standard asks) and the dark modules as one path. (`originX`,
  /// `originY`) is the square's top-left corner; its side is `svgSide(moduleSize:quietZone:)`.
  /// `dark` and `light` are SVG colours.
  public func svgGroup(
    moduleSize: Int, originX: Int = 0, originY: Int = 0, quietZone: Int = 4,
    dark: String = "#000000", light: String = "#FFFFFF"
  ) -> String {
    let unit = max(1, moduleSize)
    let margin = max(0, quietZone) * unit
    let side = String(svgSide(moduleSize: unit, quietZone: quietZone))
    var svg = "<g><rect x=\"\(originX)\" y=\"\(originY)\""
    svg += " width=\"\(side)\" height=\"\(side)\" fill=\""
    SVGText.appendEscaped(light, to: &svg)
    svg += "\"/><path fill=\""
    SVGText.appendEscaped(dark, to: &svg)
    svg += "\" shape-rendering=\"crispEdges\" d=\""
    svg += svgPath(moduleSize: unit, originX: originX + margin, originY: originY + margin)
    svg += "\"/></g>"
    return svg
  }
}

/// Why text cannot become a QR code.
public enum QRCodeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// More bytes than version 40 holds at the chosen level.
  case tooLong(byteCount: Int, maximum: Int)

  public var message: String {
    switch self {
    case .tooLong(let byteCount, let maximum):
      "The text takes \(byteCount) bytes; a QR code at this error correction level holds at "
        + "most \(maximum)."
    }
  }

  public var description: String { message }
}

/// Collects bits most significant first and hands them out as bytes.
private struct BitWriter {
  private(set) var bytes: [UInt8] = []
  private(set) var count = 0

  mutating func append(_ value: Int, count bitCount: Int) {
    for shift in stride(from: bitCount - 1, through: 0, by: -1) {
      if count % 8 == 0 { bytes.append(0) }
      if (value >> shift) & 1 != 0 { bytes[bytes.count - 1] |= 0x80 >> (count % 8) }
      count += 1
    }
  }
}
