/// A symbol while it is built: the modules, and which of them are not data.
struct QRCodeMatrix {
  let size: Int
  /// Row-major, `true` for dark.
  private(set) var modules: [Bool]
  /// Finder, separator, timing and alignment patterns, and the format and version areas:
  /// everything data placement skips and masks leave alone.
  private var reserved: [Bool]

  /// A symbol of `version` with its function patterns drawn and the format and version areas
  /// reserved but still light.
  init(version: Int) {
    size = QRCodeTables.size(version: version)
    modules = Array(repeating: false, count: size * size)
    reserved = modules

    for (row, column) in [(0, 0), (0, size - 7), (size - 7, 0)] {
      drawFinder(top: row, left: column)
    }
    // Alignment patterns go everywhere on the grid of centres except over the finders; those
    // on row or column 6 agree with the timing pattern drawn after them.
    let centres = QRCodeTables.alignmentCentres(version: version)
    for row in centres {
      for column in centres where !reserved[row * size + column] {
        drawAlignment(row: row, column: column)
      }
    }
    for index in 8..<(size - 8) {
      set(row: 6, column: index, dark: index % 2 == 0)
      set(row: index, column: 6, dark: index % 2 == 0)
    }
    // Format information around the finders, and the dark module that goes with it.
    for index in 0..<9 {
      reserve(row: 8, column: index)
      reserve(row: index, column: 8)
    }
    for index in 0..<8 {
      reserve(row: 8, column: size - 1 - index)
      reserve(row: size - 1 - index, column: 8)
    }
    if version >= 7 {
      for long in 0..<6 {
        for short in (size - 11)..<(size - 8) {
          reserve(row: long, column: short)
          reserve(row: short, column: long)
        }
      }
    }
  }

  /// Modules left for codewords and remainder bits.
  var dataModuleCount: Int { reserved.count(where: { !$0 }) }

  private mutating func set(row: Int, column: Int, dark: Bool) {
    modules[row * size + column] = dark
    reserved[row * size + column] = true
  }

  private mutating func reserve(row: Int, column: Int) {
    reserved[row * size + column] = true
  }

  /// A 7×7 finder pattern with its light separator, clipped at the symbol's edge.
  private mutating func drawFinder(top: Int, left: Int) {
    for row in (top - 1)...(top + 7) where row >= 0 && row < size {
      for column in (left - 1)...(left + 7) where column >= 0 && column < size {
        let ring = max(abs(row - top - 3), abs(column - left - 3))
        set(row: row, column: column, dark: ring != 2 && ring != 4)
      }
    }
  }

  private mutating func drawAlignment(row: Int, column: Int) {
    for dy in -2...2 {
      for dx in -2...2 {
        set(row: row + dy, column: column + dx, dark: max(abs(dx), abs(dy)) != 1)
      }
    }
  }

  /// Places the final codeword sequence (7.7.3): most significant bit first, in two-module
  /// columns from the right, going up and down in turn and stepping over the vertical timing
  /// pattern. Modules left over are remainder bits and stay light.
  mutating func place(_ codewords: [UInt8]) {
    let bitCount = codewords.count * 8
    var bit = 0
    var right = size - 1
    while right >= 1 {
      if right == 6 { right = 5 }
      let upwards = (right + 1) & 2 == 0
      for step in 0..<size {
        let row = upwards ? size - 1 - step : step
        for column in [right, right - 1] where !reserved[row * size + column] {
          if bit < bitCount {
            modules[row * size + column] = codewords[bit >> 3] & (0x80 >> (bit & 7)) != 0
            bit += 1
          }
        }
      }
      right -= 2
    }
  }

  /// Inverts the data modules where mask pattern `mask` (0–7, Table 10) says so.
  mutating func applyMask(_ mask: Int) {
    for row in 0..<size {
      for column in 0..<size where !reserved[row * size + column] {
        if Self.maskInverts(mask, row: row, column: column) {
          modules[row * size + column].toggle()
        }
      }
    }
  }

  static func maskInverts(_ mask: Int, row i: Int, column j: Int) -> Bool {
    switch mask {
    case 0: (i + j) % 2 == 0
    case 1: i % 2 == 0
    case 2: j % 3 == 0
    case 3: (i + j) % 3 == 0
    case 4: (i / 2 + j / 3) % 2 == 0
    case 5: (i * j) % 2 + (i * j) % 3 == 0
    case 6: ((i * j) % 2 + (i * j) % 3) % 2 == 0
    default: ((i + j) % 2 + (i * j) % 3) % 2 == 0
    }
  }

  /// Writes the format information twice (7.9.1) and the dark module at (4V + 9, 8).
  mutating func drawFormat(level: QRCode.ErrorCorrection, mask: Int) {
    let bits = QRCodeTables.formatBits(level: level, mask: mask)
    func bit(_ index: Int) -> Bool { (bits >> index) & 1 != 0 }
    // Around the top-left finder: bits 0–7 down column 8 (skipping the timing row), bits
    // 8–14 leftwards along row 8 (skipping the timing column).
    for index in 0..<6 { set(row: index, column: 8, dark: bit(index)) }
    set(row: 7, column: 8, dark: bit(6))
    set(row: 8, column: 8, dark: bit(7))
    set(row: 8, column: 7, dark: bit(8))
    for index in 9..<15 { set(row: 8, column: 14 - index, dark: bit(index)) }
    // Split between the other two finders: bits 0–7 along row 8 from the right edge, bits
    // 8–14 down column 8 to the bottom edge.
    for index in 0..<8 { set(row: 8, column: size - 1 - index, dark: bit(index)) }
    for index in 8..<15 { set(row: size - 15 + index, column: 8, dark: bit(index)) }
    set(row: size - 8, column: 8, dark: true)
  }

  /// Writes the version information (7.10) in its two 6×3 blocks, for versions 7 and up.
  mutating func drawVersion(_ version: Int) {
    guard version >= 7 else { return }
    let bits = QRCodeTables.versionBits(version: version)
    for index in 0..<18 {
      let dark = (bits >> index) & 1 != 0
      let long = index / 3
      let short = size - 11 + index % 3
      set(row: long, column: short, dark: dark)
      set(row: short, column: long, dark: dark)
    }
  }
}

/// Penalty points of a masked symbol (7.8.3, Table 11); the mask with the fewest wins.
struct QRCodePenalty: Hashable {
  /// N1: 3 + i for each run of 5 + i modules of one colour in a row or column.
  var runs = 0
  /// N2: 3 for each 2×2 block of one colour (overlapping blocks each count).
  var blocks = 0
  /// N3: 40 for each dark-light-dark-dark-dark-light-dark (1:1:3:1:1) in a row or column with
  /// 4 light modules before or after it; the quiet zone counts as light, and two patterns that
  /// share a module both count.
  var finderLike = 0
  /// N4: 10 for each full 5 % the share of dark modules is away from half.
  var balance = 0

  var total: Int { runs + blocks + finderLike + balance }
}

extension QRCodePenalty {
  /// Scores a square symbol given row-major, `true` for dark.
  init(modules: [Bool], size: Int) {
    // Runs once per mask over every module four times: the buffers keep debug builds (and
    // so the tests) quick; every index stays within the checked bounds of the loops.
    var line = [Bool](repeating: false, count: size)
    modules.withUnsafeBufferPointer { modules in
      for horizontal in [true, false] {
        for outer in 0..<size {
          for inner in 0..<size {
            line[inner] = modules[horizontal ? outer * size + inner : inner * size + outer]
          }
          line.withUnsafeBufferPointer { line in
            runs += Self.runPoints(line)
            finderLike += Self.finderLikePoints(line)
          }
        }
      }
      var darkCount = 0
      for index in modules.indices where modules[index] {
        darkCount += 1
      }
      for row in 0..<(size - 1) {
        for index in (row * size)..<(row * size + size - 1) {
          let colour = modules[index]
          if modules[index + 1] == colour && modules[index + size] == colour
            && modules[index + size + 1] == colour
          {
            blocks += 3
          }
        }
      }
      let total = size * size
      balance = 10 * (abs(darkCount * 20 - total * 10) / total)
    }
  }

  static func runPoints(_ line: [Bool]) -> Int {
    line.withUnsafeBufferPointer { runPoints($0) }
  }

  static func finderLikePoints(_ line: [Bool]) -> Int {
    line.withUnsafeBufferPointer { finderLikePoints($0) }
  }

  static func runPoints(_ line: UnsafeBufferPointer<Bool>) -> Int {
    var points = 0
    var length = 1
    for index in 1..<max(1, line.count + 1) {
      if index < line.count && line[index] == line[index - 1] {
        length += 1
      } else {
        if length >= 5 { points += length - 2 }
        length = 1
      }
    }
    return points
  }

  /// Dark-light-dark-dark-dark-light-dark with 4 light modules before or after it.
  static func finderLikePoints(_ line: UnsafeBufferPointer<Bool>) -> Int {
    let count = line.count
    func isLight(from start: Int) -> Bool {
      for index in start..<(start + 4) where index >= 0 && index < count && line[index] {
        return false
      }
      return true
    }
    var points = 0
    var start = 0
    while start + 7 <= count {
      if line[start] && !line[start + 1] && line[start + 2] && line[start + 3]
        && line[start + 4] && !line[start + 5] && line[start + 6]
        && (isLight(from: start - 4) || isLight(from: start + 7))
      {
        points += 40
      }
      start += 1
    }
    return points
  }
}
