import Testing

@testable import BackofficeCore

// Reference symbols come from two independent encoders, segno 1.6.6 and python-qrcode 8.2, which
// gave identical matrices for every case here once told the same mask. segno needed one fix
// first: it appends 8 zero bits when the bit stream after the terminator already ends on a
// byte boundary (always, in byte mode), which puts a stray 0x00 before the pad codewords;
// ISO/IEC 18004 7.4.10 asks for 0 to 7 padding bits. Masks are segno's own choice except where
// noted: segno's scan for finder-like patterns skips a pattern that overlaps the one before
// it, so it scores a few symbols lower than the standard does (`overlappingFinderLikePatterns`).

@Suite("QR codes")
struct QRCodeTests {
  // MARK: - Reed–Solomon and codewords

  @Test("Reed–Solomon: the standard's 01234567 example at 1-M")
  func isoExample() {
    // ISO/IEC 18004 Annex I: "01234567" in numeric mode, version 1-M.
    let data: [UInt8] = [
      0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC,
      0x11,
    ]
    #expect(
      ReedSolomon.errorCorrection(for: data, degree: 10)
        == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
  }

  @Test("Reed–Solomon: generator polynomials")
  func generators() {
    // (x − α⁰)(x − α¹) = x² + 3x + 2
    #expect(ReedSolomon.generator(degree: 2) == [3, 2])
    // Annex A, degree 7: α⁸⁷, α²²⁹, α¹⁴⁶, α¹⁴⁹, α²³⁸, α¹⁰², α²¹.
    #expect(ReedSolomon.generator(degree: 7) == [127, 122, 154, 164, 11, 68, 117])
  }

  @Test("byte mode codewords of a jar link, 3-M in one block")
  func jarLinkCodewords() {
    let bytes = Array("https://send.monobank.ua/jar/8xZ2kQ3v9A".utf8)
    let data = QRCode.dataCodewords(bytes, version: 3, correction: .medium)
    #expect(
      data
        == hexBytes(
          """
          42768747470733A2F2F73656E642E6D6F6E6F62616E6B2E75612F6A61722F387
          85A326B51337639410EC11EC
          """))
    #expect(
      QRCode.finalCodewords(data, version: 3, correction: .medium)
        == hexBytes(
          """
          42768747470733A2F2F73656E642E6D6F6E6F62616E6B2E75612F6A61722F387
          85A326B51337639410EC11EC8E347DE4CEA72695AAD2001E03B2C4D4E5A75A60
          70D2C557F702
          """))
  }

  @Test("interleaving: 5-Q has two blocks of 15 data codewords and two of 16")
  func interleaving() {
    let bytes = Array("Збір на FPV-дрони: мета 50 000 грн".utf8)
    let data = QRCode.dataCodewords(bytes, version: 5, correction: .quartile)
    #expect(
      data
        == hexBytes(
          """
          434D097D0B1D196D18020D0BDD0B0204650562DD0B4D180D0BED0BDD0B83A20D
          0BCD0B5D182D0B02035302030303020D0B3D180D0BD0EC11EC11EC11EC11
          """))
    #expect(
      QRCode.finalCodewords(data, version: 5, correction: .quartile)
        == hexBytes(
          """
          4304A2024D650D0D09050B0B7D62CD3D0BDD0B181D0B5D0D194D180B6D182DD0
          180D0BEC020B02110DED03EC0B0B5311DDDD02EC0B0B0311028303EC03119D45
          73E696CABF6370BC16F976EE4B54CD9B56A766E8D50B8B896E12FF02B5ABC627
          49B356578554D1D1637B5E7B06A91AAA1E2C7389FF1EAF25D233B5BEB4FBCEE9
          B2FEA09E07FB
          """))
  }

  // MARK: - The standard's tables

  @Test("format information for every level and mask (Table C.1)")
  func formatInformation() {
    let table: [(QRCode.ErrorCorrection, [Int])] = [
      (.low, [0x77C4, 0x72F3, 0x7DAA, 0x789D, 0x662F, 0x6318, 0x6C41, 0x6976]),
      (.medium, [0x5412, 0x5125, 0x5E7C, 0x5B4B, 0x45F9, 0x40CE, 0x4F97, 0x4AA0]),
      (.quartile, [0x355F, 0x3068, 0x3F31, 0x3A06, 0x24B4, 0x2183, 0x2EDA, 0x2BED]),
      (.high, [0x1689, 0x13BE, 0x1CE7, 0x19D0, 0x0762, 0x0255, 0x0D0C, 0x083B]),
    ]
    for (level, bits) in table {
      for mask in 0..<8 {
        #expect(QRCodeTables.formatBits(level: level, mask: mask) == bits[mask], "\(level) \(mask)")
      }
    }
  }

  @Test("version information for versions 7–40 (Table D.1)")
  func versionInformation() {
    let table = [
      0x07C94, 0x085BC, 0x09A99, 0x0A4D3, 0x0BBF6, 0x0C762, 0x0D847, 0x0E60D, 0x0F928, 0x10B78,
      0x1145D, 0x12A17, 0x13532, 0x149A6, 0x15683, 0x168C9, 0x177EC, 0x18EC4, 0x191E1, 0x1AFAB,
      0x1B08E, 0x1CC1A, 0x1D33F, 0x1ED75, 0x1F250, 0x209D5, 0x216F0, 0x228BA, 0x2379F, 0x24B0B,
      0x2542E, 0x26A64, 0x27541, 0x28C69,
    ]
    #expect((7...40).map { QRCodeTables.versionBits(version: $0) } == table)
  }

  @Test("alignment pattern centres (Table E.1)")
  func alignmentCentres() {
    let table: [[Int]] = [
      [],
      [6, 18],
      [6, 22],
      [6, 26],
      [6, 30],
      [6, 34],
      [6, 22, 38],
      [6, 24, 42],
      [6, 26, 46],
      [6, 28, 50],
      [6, 30, 54],
      [6, 32, 58],
      [6, 34, 62],
      [6, 26, 46, 66],
      [6, 26, 48, 70],
      [6, 26, 50, 74],
      [6, 30, 54, 78],
      [6, 30, 56, 82],
      [6, 30, 58, 86],
      [6, 34, 62, 90],
      [6, 28, 50, 72, 94],
      [6, 26, 50, 74, 98],
      [6, 30, 54, 78, 102],
      [6, 28, 54, 80, 106],
      [6, 32, 58, 84, 110],
      [6, 30, 58, 86, 114],
      [6, 34, 62, 90, 118],
      [6, 26, 50, 74, 98, 122],
      [6, 30, 54, 78, 102, 126],
      [6, 26, 52, 78, 104, 130],
      [6, 30, 56, 82, 108, 134],
      [6, 34, 60, 86, 112, 138],
      [6, 30, 58, 86, 114, 142],
      [6, 34, 62, 90, 118, 146],
      [6, 30, 54, 78, 102, 126, 150],
      [6, 24, 50, 76, 102, 128, 154],
      [6, 28, 54, 80, 106, 132, 158],
      [6, 32, 58, 84, 110, 136, 162],
      [6, 26, 54, 82, 110, 138, 166],
      [6, 30, 58, 86, 114, 142, 170],
    ]
    #expect((1...40).map { QRCodeTables.alignmentCentres(version: $0) } == table)
  }

  @Test("byte mode capacity of every version and level (Table 7)", arguments: byteCapacityTable)
  func byteCapacity(level: QRCode.ErrorCorrection, capacities: [Int]) {
    #expect((1...40).map { QRCodeTables.byteCapacity(version: $0, level: level) } == capacities)
  }

  @Test("codeword counts add up for every version")
  func codewordCounts() {
    // Table 1 gives 26 codewords for version 1, 196 for 7, 3706 for 40.
    #expect(QRCodeTables.totalCodewords(version: 1) == 26)
    #expect(QRCodeTables.totalCodewords(version: 7) == 196)
    #expect(QRCodeTables.totalCodewords(version: 40) == 3706)
    for version in 1...40 {
      // Every module that is not a function pattern holds a codeword bit or a remainder bit.
      let free = QRCodeMatrix(version: version).dataModuleCount
      #expect(free / 8 == QRCodeTables.totalCodewords(version: version), "version \(version)")
      #expect([0, 3, 4, 7].contains(free % 8), "version \(version)")
    }
  }

  // MARK: - Choosing the version

  @Test(
    "the longest text for a version fits it; one byte more moves up", arguments: byteCapacityTable)
  func capacityBoundaries(level: QRCode.ErrorCorrection, capacities: [Int]) throws {
    for (index, capacity) in capacities.enumerated() {
      #expect(QRCode.version(forByteCount: capacity, correction: level) == index + 1)
      #expect(
        QRCode.version(forByteCount: capacity + 1, correction: level)
          == (index + 1 < capacities.count ? index + 2 : nil))
    }
    #expect(
      try QRCode(String(repeating: "a", count: capacities[6]), correction: level).version == 7)
    #expect(
      try QRCode(String(repeating: "a", count: capacities[6] + 1), correction: level).version == 8)
    let maximum = try #require(capacities.last)
    #expect(QRCode.maximumByteCount(correction: level) == maximum)
    #expect(throws: QRCodeError.tooLong(byteCount: maximum + 1, maximum: maximum)) {
      try QRCode(bytes: Array(repeating: 0x61, count: maximum + 1), correction: level)
    }
  }

  @Test("UTF-8 bytes are counted, not characters")
  func utf8Count() throws {
    // 13 Cyrillic letters take 26 bytes: the most 2-M holds.
    let fits = try QRCode(String(repeating: "ї", count: 13))
    #expect(fits.version == 2)
    let over = try QRCode(String(repeating: "ї", count: 13) + "!")
    #expect(over.version == 3)
  }

  @Test("too long: a clear error")
  func tooLong() {
    let text = String(repeating: "Ї", count: 1200)
    #expect(throws: QRCodeError.tooLong(byteCount: 2400, maximum: 2331)) {
      try QRCode(text)
    }
    let error = QRCodeError.tooLong(byteCount: 2400, maximum: 2331)
    #expect(
      error.message
        == "The text takes 2400 bytes; a QR code at this error correction level holds at most 2331."
    )
    #expect("\(error)" == error.message)
  }

  @Test("medium is the default level")
  func defaultLevel() throws {
    let code = try QRCode("https://send.monobank.ua/jar/8xZ2kQ3v9A")
    #expect(code.correction == .medium)
    #expect(code == (try QRCode("https://send.monobank.ua/jar/8xZ2kQ3v9A", correction: .medium)))
  }

  // MARK: - Whole symbols against the references

  @Test("whole symbols match the references", arguments: Reference.all)
  func wholeSymbol(reference: Reference) throws {
    let code = try QRCode(reference.text, correction: reference.correction)
    #expect(code.version == reference.version)
    #expect(code.size == reference.version * 4 + 17)
    #expect(code.mask == reference.mask)
    #expect(art(code) == reference.rows)
    #expect(QRCodePenalty(modules: code.modules, size: code.size) == reference.penalty)
  }

  @Test(
    "every version and level matches the references, longest text each",
    arguments: QRCode.ErrorCorrection.allCases)
  func everyVersion(level: QRCode.ErrorCorrection) throws {
    for entry in Self.sweep where entry.level == level {
      // Scoring all eight masks of every large symbol takes seconds in a debug build: the
      // automatic choice is checked up to version 20, the larger symbols get the reference's
      // mask.
      let forcedMask = entry.version <= 20 ? nil : entry.mask
      let code = try QRCode(
        bytes: sweepText(entry.byteCount), correction: level, minimumVersion: 1, mask: forcedMask)
      #expect(code.version == entry.version, "\(level) \(entry.version)")
      #expect(code.mask == entry.mask, "\(level) \(entry.version)")
      #expect(digest(code) == entry.digest, "\(level) \(entry.version)")
    }
  }

  @Test("each mask pattern, forced, matches the references")
  func forcedMasks() throws {
    let digests: [UInt64] = [
      0xBA63_907E_F69A_86D9,
      0x4E92_C627_18F5_C517,
      0x2D83_6F5D_359F_A002,
      0x58F8_2F7A_99FC_1161,
      0xCF23_4E86_5D0E_64F6,
      0x3C51_2BAA_D513_B26E,
      0xF658_07A9_E4F1_E6B1,
      0x9179_B60C_4F8E_746B,
    ]
    let bytes = Array("https://send.monobank.ua/jar/8xZ2kQ3v9A".utf8)
    for mask in 0..<8 {
      let code = try QRCode(bytes: bytes, correction: .medium, minimumVersion: 1, mask: mask)
      #expect(code.mask == mask)
      #expect(digest(code) == digests[mask], "mask \(mask)")
    }
  }

  @Test("a minimum version is honoured")
  func minimumVersion() throws {
    let code = try QRCode(bytes: Array("A".utf8), correction: .medium, minimumVersion: 7, mask: nil)
    #expect(code.version == 7)
    // The dark module and both copies of the version information are there.
    #expect(code[8, code.size - 8])
    let bits = QRCodeTables.versionBits(version: 7)
    for index in 0..<18 {
      let dark = (bits >> index) & 1 != 0
      #expect(code[code.size - 11 + index % 3, index / 3] == dark)
      #expect(code[index / 3, code.size - 11 + index % 3] == dark)
    }
  }

  // MARK: - Mask choice

  @Test("finder-like patterns that share a module are each counted")
  func overlappingFinderLikePatterns() throws {
    // Row 2 of "Jar KrZyD8TXuoK" (2-M) under mask 1, before format information: a finder,
    // light modules, a look-alike, and the right-hand finder sharing the look-alike's last
    // module. Three patterns with four light modules on one side (the symbol's edge counts as
    // light). segno resumes its search after the end of a match and so misses the third;
    // with 40 points fewer, mask 1 beats mask 7 for segno, while we choose 7.
    let line = "1011101000001011101011101".map { $0 == "1" }
    #expect(QRCodePenalty.finderLikePoints(line) == 120)
    #expect(try QRCode("Jar KrZyD8TXuoK").mask == 7)
  }

  @Test("penalty rules, one at a time")
  func penaltyRules() {
    // 5×5 all light: rows and columns are runs of 5 (3 points each, 10 lines), 16 blocks of
    // 2×2, no finder-like pattern, no dark modules (50 % off balance: 10 × 10).
    let light = QRCodePenalty(modules: Array(repeating: false, count: 25), size: 5)
    #expect(light == QRCodePenalty(runs: 30, blocks: 48, finderLike: 0, balance: 100))
    // A checkerboard: no runs, no blocks, 25 of 49 dark (51 %: less than 5 % off).
    let checker = (0..<49).map { ($0 / 7 + $0 % 7) % 2 == 0 }
    #expect(QRCodePenalty(modules: checker, size: 7).total == 0)
    // Runs: 6 in a row score 4, 7 score 5; runs end at the edge too.
    let runs = "0111111011111110".map { $0 == "1" }
    #expect(QRCodePenalty.runPoints(runs) == 4 + 5)
    // The finder-like pattern needs its light side to be 4 modules wide.
    #expect(QRCodePenalty.finderLikePoints("1110101110100001".map { $0 == "1" }) == 40)
    #expect(QRCodePenalty.finderLikePoints("1110101110100011".map { $0 == "1" }) == 0)
  }

  // MARK: - SVG

  @Test("the path covers exactly the dark modules, each once")
  func pathCoversDarkModules() throws {
    for text in ["", "01234567", "https://send.monobank.ua/jar/8xZ2kQ3v9A", Reference.all[3].text] {
      let code = try QRCode(text)
      let unit = 3
      let path = code.svgPath(moduleSize: unit, originX: 10, originY: 20)
      var covered = [Int](repeating: 0, count: code.size * code.size)
      for rectangle in try parse(path) {
        #expect((rectangle.x - 10) % unit == 0 && (rectangle.y - 20) % unit == 0)
        #expect(rectangle.width % unit == 0 && rectangle.height % unit == 0)
        for y in stride(from: rectangle.y, to: rectangle.y + rectangle.height, by: unit) {
          for x in stride(from: rectangle.x, to: rectangle.x + rectangle.width, by: unit) {
            covered[(y - 20) / unit * code.size + (x - 10) / unit] += 1
          }
        }
      }
      for y in 0..<code.size {
        for x in 0..<code.size {
          #expect(covered[y * code.size + x] == (code[x, y] ? 1 : 0), "\(text) \(x),\(y)")
        }
      }
    }
  }

  @Test("the path starts with the top-left finder and merges repeated runs")
  func pathText() throws {
    let code = try QRCode("01234567")
    let path = code.svgPath()
    // The finder's top row (7 wide), then its sides as 1×5 bars, its 3×3 centre merged
    // downwards, and its bottom row.
    #expect(path.hasPrefix("M0 0h7v1h-7z"))
    #expect(path.contains("M0 1h1v5h-1z"))
    #expect(path.contains("M2 2h3v3h-3z"))
    #expect(path.contains("M0 6h7v1h-7z"))
    let scaled = code.svgPath(moduleSize: 4, originX: 8, originY: 12)
    #expect(scaled.hasPrefix("M8 12h28v4h-28z"))
    #expect(!path.contains(".") && !scaled.contains("."))
  }

  @Test("the group: light square with the quiet zone, dark path inside")
  func group() throws {
    let code = try QRCode("https://send.monobank.ua/jar/8xZ2kQ3v9A")
    #expect(code.svgSide(moduleSize: 5) == (29 + 8) * 5)
    let svg = code.svgGroup(moduleSize: 5, originX: 100, originY: 200)
    let path = code.svgPath(moduleSize: 5, originX: 120, originY: 220)
    #expect(
      svg
        == "<g><rect x=\"100\" y=\"200\" width=\"185\" height=\"185\" fill=\"#FFFFFF\"/>"
        + "<path fill=\"#000000\" shape-rendering=\"crispEdges\" d=\"\(path)\"/></g>")
    let custom = code.svgGroup(
      moduleSize: 2, quietZone: 2, dark: "#1A2B3C", light: "white\"/><script>")
    #expect(custom.contains("width=\"66\""))
    #expect(custom.contains("fill=\"white&quot;/&gt;&lt;script&gt;\""))
    #expect(custom.contains("fill=\"#1A2B3C\""))
    #expect(custom.contains("d=\"M4 4h14v2h-14z"))
  }

  @Test("same text, same symbol and the same bytes")
  func deterministic() throws {
    let text = "https://send.monobank.ua/jar/8xZ2kQ3v9A"
    let first = try QRCode(text)
    let second = try QRCode(text)
    #expect(first == second)
    #expect(first.svgGroup(moduleSize: 4) == second.svgGroup(moduleSize: 4))
  }

  @Test("outside the symbol is light")
  func quietZone() throws {
    let code = try QRCode("A")
    #expect(code[0, 0])
    #expect(!code[-1, 0] && !code[0, -1] && !code[code.size, 0] && !code[0, code.size])
  }
}

// MARK: - Reference data

extension QRCodeTests {
  struct Reference: Sendable, CustomTestStringConvertible {
    let text: String
    let correction: QRCode.ErrorCorrection
    let version: Int
    let mask: Int
    /// segno's `mask_scores` of the finished symbol.
    let penalty: QRCodePenalty
    let rows: String

    var testDescription: String { "\(version)-\(correction): \(text.prefix(24))" }

    static let all: [Reference] = [
      Reference(
        text: "01234567", correction: .medium, version: 1, mask: 6,
        penalty: QRCodePenalty(runs: 180, blocks: 108, finderLike: 720, balance: 0),
        rows: """
          #######.#.##..#######
          #.....#.#..##.#.....#
          #.###.#.#...#.#.###.#
          #.###.#..##...#.###.#
          #.###.#.#.#.#.#.###.#
          #.....#..####.#.....#
          #######.#.#.#.#######
          ..........###........
          #..######...##..#.###
          ####...###..####..##.
          .###..#####..#.#..#.#
          .#...#.....#.....##..
          ..##..#.#.#..##.#..##
          ........##.##..##.#..
          #######.#...#####..#.
          #.....#.######.##.#.#
          #.###.#.#..##.#......
          #.###.#.#.###..#.##..
          #.###.#..#....###..##
          #.....#..##..##...###
          #######.##.#....##...
          """),
      Reference(
        text: "https://send.monobank.ua/jar/8xZ2kQ3v9A", correction: .medium, version: 3, mask: 7,
        penalty: QRCodePenalty(runs: 276, blocks: 225, finderLike: 760, balance: 0),
        rows: """
          #######..#.....#...#..#######
          #.....#...######.##...#.....#
          #.###.#..####..###.##.#.###.#
          #.###.#........##.#...#.###.#
          #.###.#..#.#...#..#.#.#.###.#
          #.....#.###..####..#..#.....#
          #######.#.#.#.#.#.#.#.#######
          .........#....######.........
          #..#.##.####..#...##.#.#.....
          #.#.....##..##.##...####.#..#
          ..##.####...###.##.####.####.
          ..#.##..##.#.#....#..###..##.
          .###..##..###.####.####..#.##
          .#..##..###.##.....###.......
          #.....#...#.###.#.#.##.#.####
          .#...#..#.###....#.#....##.#.
          .#....#.######..##.###.....#.
          .#.#...#.#..###......###.#..#
          #.##.##...#.#.#.#.#.##.##..##
          ....#...###.#.#.####.......##
          #.#.####.##....#....#####.#..
          ........#.###.#######...#.###
          #######..#.#.....##.#.#.#..#.
          #.....#.#####.##....#...###.#
          #.###.#..##.#..#.##.#####..##
          #.###.#.#.####.....##.######.
          #.###.#....#....#..##...###.#
          #.....#..#.....#.####.#.#..#.
          #######.#.#.#..####.#.#.#..#.
          """),
      // segno picks mask 1: see `QRCodeTests.overlappingFinderLikePatterns`.
      Reference(
        text: "Jar KrZyD8TXuoK", correction: .medium, version: 2, mask: 7,
        penalty: QRCodePenalty(runs: 220, blocks: 198, finderLike: 720, balance: 0),
        rows: """
          #######.....##..#.#######
          #.....#....#.###..#.....#
          #.###.#..#..##..#.#.###.#
          #.###.#..#...###..#.###.#
          #.###.#....#.##.#.#.###.#
          #.....#.##.#.##...#.....#
          #######.#.#.#.#.#.#######
          .........#..#.#..........
          #..#.##.##.....###.#.....
          ###.#..###.#..##..##.#..#
          .##.###.#.##....#..##.###
          .#..##....###.#.....##.#.
          ......#.##..#..####.#...#
          ...#.#.###.##..#...#.####
          #...#.###.#.#.....##..#.#
          .#...#.#....###.##.##..##
          ###.#.##..##.########....
          ........###....##...###..
          #######......#.##.#.##.##
          #.....#.#.##.#..#...#.#.#
          #.###.#..####.#.######...
          #.###.#.#.####......##.#.
          #.###.#....#####.##.#.#.#
          #.....#....###..#.##.....
          #######.####..###.#..####
          """),
      Reference(
        text: "Збір на тепловізор для розвідки. Кожна гривня наближає перемогу!",
        correction: .medium,
        version: 7, mask: 6,
        penalty: QRCodePenalty(runs: 536, blocks: 582, finderLike: 840, balance: 0),
        rows: """
          #######.#..#.##.##.####.#...#..###..#.#######
          #.....#.###.#..##.##...#..#######..#..#.....#
          #.###.#.#...#######.##...#..#.##...#..#.###.#
          #.###.#..#..#...##.###.#..##..#..#.##.#.###.#
          #.###.#.#.#.##....#######..###.######.#.###.#
          #.....#..###...##..##...###.#....#....#.....#
          #######.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#######
          ..........###......##...#..##.#.#...#........
          #..#######.##...##..#####.##..#.###..#..#.###
          ##..##....#...#...####..##..#...##..#..###.##
          #######..#.##.##.####..#.###....#..#####.#...
          ##.##..#...#..#..##..#..#..#####..###..#.....
          ..#.###..#.###..##..#.###.#..##...#.####..###
          .###.#..#.###.#..#.##..#.#...#.##.##.#....#..
          .#.##.#...#.#..#..#.#........###.###..###.###
          #..##..#.##.....#.#...#.#.##..#...#...###...#
          .#.#..##..#.#...#...#########.#.##.#..#.#...#
          #..###....###.....#...#.#.#.##...#.##.#..#.#.
          ...#..#...#..#.#.###.##..########.###...###..
          #....#.#.##.#..##.###.#.#..###..#...####.#.#.
          #..#######.#....#..#########....###.#########
          #.#.#...#..#.###.#..#...##..##.##..##...####.
          ###.#.#.######.####.#.#.####..###.###.#.#....
          ##.##...###..####.###...#..###....###...#....
          ....#####.#.####.##.#######..###.########.###
          #.......###...#.##########.#.#..#.#..####.#.#
          ...#..##..###....#..##.#..#.####......#####.#
          ##.#.#.#.#.##.##..#.#....###..#.##.####.#....
          ..##.##.##...#...##.#.###..####...#.###..####
          ..##....#.#...#.##..#######.##.#..###.##...#.
          .##...###.###.......###.#.###..###.#....##...
          ###..#...#.#.#.##.#....#...#..#....##.#..#...
          .#..###..####..##.#.##.#..#....######...#####
          ######.##.#...##.#...#..#.#..#..#...#.##..###
          ....#.#..###..###..###..#..#..#.#.####.####..
          .####..#.#.##..##.#..##....#######.###.###...
          #..##.##..#....#.##########..###....#####..##
          ........##.#.######.#...##.##..######...#.#.#
          #######.#.##.####.#.#.#.#.#.##.#..#.#.#.#.#.#
          #.....#.#...#..#.##.#...#..#..####..#...#..#.
          #.###.#.###..#....########.#####...######..##
          #.###.#.#.##.#.#.#....#####.##.###..####.####
          #.###.#..##.#.#.#########.###..##.##..##.##.#
          #.....#..##.####.#..#..#.###.##.#..##.....###
          #######.##..#.....#.##...#...##.###.#..##....
          """),
    ]
  }

  struct SweepEntry {
    let level: QRCode.ErrorCorrection
    let version: Int
    let byteCount: Int
    let mask: Int
    let digest: UInt64
  }

  /// For each level and version, the longest text it holds (`sweepText`), its mask and the
  /// FNV-1a digest of the reference symbol.
  static let sweep: [SweepEntry] = sweepTable.map {
    SweepEntry(level: $0.0, version: $0.1, byteCount: $0.2, mask: $0.3, digest: $0.4)
  }
}

/// `count` ASCII letters and digits in a fixed order.
private func sweepText(_ count: Int) -> [UInt8] {
  let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
  return (0..<count).map { alphabet[($0 * 7) % 62] }
}

/// FNV-1a over the modules row by row, one byte (0 or 1) each.
private func digest(_ code: QRCode) -> UInt64 {
  var hash: UInt64 = 0xCBF2_9CE4_8422_2325
  for y in 0..<code.size {
    for x in 0..<code.size {
      hash ^= code[x, y] ? 1 : 0
      hash &*= 0x100_0000_01B3
    }
  }
  return hash
}

/// Rows of `#` (dark) and `.` (light), one line each.
private func art(_ code: QRCode) -> String {
  (0..<code.size).map { y in
    String((0..<code.size).map { x in code[x, y] ? "#" : "." })
  }.joined(separator: "\n")
}

/// Bytes from hexadecimal digits; line breaks are ignored.
private func hexBytes(_ text: String) -> [UInt8] {
  let digits = Array(text.utf8.filter { $0 != UInt8(ascii: "\n") })
  return stride(from: 0, to: digits.count - 1, by: 2).map {
    UInt8(String(decoding: digits[$0...($0 + 1)], as: UTF8.self), radix: 16) ?? 0
  }
}

private struct PathRectangle {
  let x: Int
  let y: Int
  let width: Int
  let height: Int
}

/// Reads `M x y h w v h h -w z` rectangles, refusing anything else.
private func parse(_ path: String) throws -> [PathRectangle] {
  var result: [PathRectangle] = []
  var rest = Substring(path)
  func number(after prefix: String) throws -> Int {
    try #require(rest.hasPrefix(prefix), "expected \(prefix) in \(rest.prefix(20))")
    rest = rest.dropFirst(prefix.count)
    let digits = rest.prefix { $0.isNumber }
    rest = rest.dropFirst(digits.count)
    return try #require(Int(digits))
  }
  while !rest.isEmpty {
    let x = try number(after: "M")
    let y = try number(after: " ")
    let width = try number(after: "h")
    let height = try number(after: "v")
    #expect(try number(after: "h-") == width)
    try #require(rest.hasPrefix("z"))
    rest = rest.dropFirst()
    result.append(PathRectangle(x: x, y: y, width: width, height: height))
  }
  return result
}

// MARK: - Tables

/// Table 7, byte mode: the most bytes each version holds, by level.
private let byteCapacityTable: [(QRCode.ErrorCorrection, [Int])] = [
  (
    .low,
    [
      17, 32, 53, 78, 106, 134, 154, 192, 230, 271,
      321, 367, 425, 458, 520, 586, 644, 718, 792, 858,
      929, 1003, 1091, 1171, 1273, 1367, 1465, 1528, 1628, 1732,
      1840, 1952, 2068, 2188, 2303, 2431, 2563, 2699, 2809, 2953,
    ]
  ),
  (
    .medium,
    [
      14, 26, 42, 62, 84, 106, 122, 152, 180, 213,
      251, 287, 331, 362, 412, 450, 504, 560, 624, 666,
      711, 779, 857, 911, 997, 1059, 1125, 1190, 1264, 1370,
      1452, 1538, 1628, 1722, 1809, 1911, 1989, 2099, 2213, 2331,
    ]
  ),
  (
    .quartile,
    [
      11, 20, 32, 46, 60, 74, 86, 108, 130, 151,
      177, 203, 241, 258, 292, 322, 364, 394, 442, 482,
      509, 565, 611, 661, 715, 751, 805, 868, 908, 982,
      1030, 1112, 1168, 1228, 1283, 1351, 1423, 1499, 1579, 1663,
    ]
  ),
  (
    .high,
    [
      7, 14, 24, 34, 44, 58, 64, 84, 98, 119,
      137, 155, 177, 194, 220, 250, 280, 310, 338, 382,
      403, 439, 461, 511, 535, 593, 625, 658, 698, 742,
      790, 842, 898, 958, 983, 1051, 1093, 1139, 1219, 1273,
    ]
  ),
]

/// Level, version, bytes, mask, digest.
private let sweepTable: [(QRCode.ErrorCorrection, Int, Int, Int, UInt64)] = [
  (.low, 1, 17, 4, 0xEEA4_3E69_5D33_542F),
  (.low, 2, 32, 4, 0xE3BB_A12E_681F_71FF),
  (.low, 3, 53, 3, 0x794C_1FD7_AF8B_236B),
  (.low, 4, 78, 4, 0x0D75_70D8_28F0_28EB),
  (.low, 5, 106, 2, 0x3BEE_64DB_220A_5D0F),
  (.low, 6, 134, 4, 0xF4A4_3219_DD3F_A686),
  (.low, 7, 154, 4, 0x9576_439C_C154_D6A3),
  (.low, 8, 192, 4, 0x5261_5EF2_2477_BE27),
  (.low, 9, 230, 2, 0xB4FE_1160_CF44_E3A7),
  (.low, 10, 271, 1, 0x5546_CFF2_D624_8B3C),
  (.low, 11, 321, 2, 0x4A29_5703_BDFD_4F93),
  (.low, 12, 367, 4, 0xB3C8_6128_7F96_C853),
  (.low, 13, 425, 2, 0x14C0_CD68_17A7_7791),
  (.low, 14, 458, 2, 0x6ADD_4559_267A_81EB),
  (.low, 15, 520, 2, 0x3D25_622E_C0FA_A683),
  (.low, 16, 586, 2, 0x4697_4807_0A01_E962),
  (.low, 17, 644, 2, 0x610D_4FE5_6EBF_AF7B),
  (.low, 18, 718, 2, 0x2FF4_0EC5_258D_4725),
  (.low, 19, 792, 7, 0xBE57_D01F_66A1_D285),
  (.low, 20, 858, 2, 0xBADE_FD13_203A_7B39),
  (.low, 21, 929, 3, 0x242B_175A_7DAC_0A75),
  (.low, 22, 1003, 4, 0xA8D9_B8E6_799B_B1F3),
  (.low, 23, 1091, 4, 0x14EB_A23C_1E86_1BA9),
  (.low, 24, 1171, 4, 0x270C_0C91_95D4_E603),
  (.low, 25, 1273, 4, 0x9152_BB96_4D19_BC93),
  (.low, 26, 1367, 4, 0x010D_78FA_2901_4CDB),
  (.low, 27, 1465, 4, 0x57F3_AEC8_A0F5_EE79),
  (.low, 28, 1528, 2, 0x00E1_1B07_0A32_2D28),
  (.low, 29, 1628, 2, 0x16D5_D7F9_21B4_4D45),
  (.low, 30, 1732, 2, 0x1E65_D8F0_3B6A_419B),
  (.low, 31, 1840, 2, 0xD9AC_6300_7898_14D8),
  (.low, 32, 1952, 2, 0x6093_3E4C_2DFD_8804),
  (.low, 33, 2068, 2, 0x4C56_A896_5496_4056),
  (.low, 34, 2188, 2, 0x1A94_544E_9E4D_D747),
  (.low, 35, 2303, 1, 0xFBCF_670D_F970_9622),
  (.low, 36, 2431, 1, 0x75D5_1573_6D43_F37C),
  (.low, 37, 2563, 1, 0xDDB8_1C15_DD85_2DEE),
  (.low, 38, 2699, 4, 0x35FC_5A89_8A0D_EB3F),
  (.low, 39, 2809, 2, 0xA60A_3AC3_932A_1445),
  (.low, 40, 2953, 4, 0xC634_5C3F_7741_688D),
  (.medium, 1, 14, 3, 0xE532_6B84_087B_73EB),
  (.medium, 2, 26, 4, 0x75C6_8804_A74B_BFD3),
  (.medium, 3, 42, 6, 0x455A_9C73_3B8D_C3C3),
  (.medium, 4, 62, 7, 0x0C9C_D299_AB4A_54D4),
  (.medium, 5, 84, 4, 0x0B80_7905_1BB3_75DD),
  (.medium, 6, 106, 6, 0x5903_D0B2_60C2_F423),
  (.medium, 7, 122, 1, 0x43D7_02A5_969A_0800),
  (.medium, 8, 152, 3, 0x2A76_3FFD_8038_FD5B),
  (.medium, 9, 180, 4, 0xE3C7_7CF2_3001_E01F),
  (.medium, 10, 213, 5, 0x65F6_4AAF_35B8_6193),
  (.medium, 11, 251, 1, 0xDCA6_70A8_2695_305A),
  (.medium, 12, 287, 6, 0x08E2_E873_41E8_B770),
  (.medium, 13, 331, 3, 0xCA53_CD10_07B5_1473),
  (.medium, 14, 362, 2, 0x56FB_DF88_9C76_C285),
  (.medium, 15, 412, 5, 0xED86_F074_6D6E_3EFA),
  (.medium, 16, 450, 2, 0xAD6D_E44E_295E_37E6),
  (.medium, 17, 504, 3, 0x34AB_F0DC_8D46_E0C9),
  (.medium, 18, 560, 3, 0xB7B1_622D_8D62_CD04),
  (.medium, 19, 624, 2, 0x1F0F_A014_41A2_7FF3),
  (.medium, 20, 666, 2, 0x47DD_2002_83F6_3D8D),
  (.medium, 21, 711, 6, 0x1883_8311_9319_360B),
  (.medium, 22, 779, 4, 0x04A0_4786_22E9_C45F),
  (.medium, 23, 857, 7, 0x16F5_1504_601B_FC99),
  (.medium, 24, 911, 4, 0x78C3_20A5_8AB6_DEBB),
  (.medium, 25, 997, 4, 0x5172_3738_E89D_E3F9),
  (.medium, 26, 1059, 4, 0xF085_9F1F_B889_E173),
  (.medium, 27, 1125, 5, 0x9AE7_04A2_C61F_33D8),
  (.medium, 28, 1190, 5, 0xA9A0_3C9C_58A9_1D2D),
  (.medium, 29, 1264, 2, 0xA165_2EC8_4FB2_F74B),
  (.medium, 30, 1370, 2, 0xB566_2F1B_6DAC_4E6F),
  (.medium, 31, 1452, 2, 0x30A5_DC09_E889_DA86),
  (.medium, 32, 1538, 2, 0x0BD2_BA7F_8563_F7E6),
  (.medium, 33, 1628, 6, 0xE242_BB02_8A8C_104B),
  (.medium, 34, 1722, 2, 0x0012_B418_EFB0_085B),
  (.medium, 35, 1809, 7, 0xD9E0_7F21_29D4_99C7),
  (.medium, 36, 1911, 6, 0x2BDB_8ABD_3C3E_DCFE),
  (.medium, 37, 1989, 4, 0x739A_D394_6A2F_9ACB),
  (.medium, 38, 2099, 2, 0x35C9_20EA_1DEC_D02F),
  (.medium, 39, 2213, 2, 0x2088_4B4B_F351_CD05),
  (.medium, 40, 2331, 6, 0x44F8_1DA7_4014_387B),
  (.quartile, 1, 11, 2, 0x413C_8978_E06B_4A0D),
  (.quartile, 2, 20, 7, 0xF001_3AEC_20F8_70BD),
  (.quartile, 3, 32, 2, 0x0C11_CFBD_FFD1_7FE2),
  (.quartile, 4, 46, 3, 0xD56C_69CF_54F6_8624),
  // segno picks mask 3 here: see `overlappingFinderLikePatterns`.
  (.quartile, 5, 60, 2, 0x1341_ED30_2900_0B99),
  (.quartile, 6, 74, 2, 0xAFD7_989E_F06D_578C),
  (.quartile, 7, 86, 4, 0x63A5_1573_100E_CC41),
  (.quartile, 8, 108, 2, 0x11BC_A269_83AD_55CD),
  (.quartile, 9, 130, 2, 0x694A_662B_C493_6607),
  (.quartile, 10, 151, 7, 0x9498_8DEC_CF63_533D),
  (.quartile, 11, 177, 6, 0x72E3_5801_137C_731D),
  (.quartile, 12, 203, 7, 0xCC3E_FFDF_73B3_6128),
  (.quartile, 13, 241, 2, 0x41FA_DE80_AC03_CC01),
  (.quartile, 14, 258, 2, 0x816D_2370_56D5_565B),
  (.quartile, 15, 292, 2, 0x0488_D498_4A35_AF97),
  (.quartile, 16, 322, 2, 0xC54B_F28B_F925_3CCA),
  (.quartile, 17, 364, 6, 0x2835_05B3_44A3_CF05),
  (.quartile, 18, 394, 2, 0xB5AF_5CF3_4EC7_D277),
  (.quartile, 19, 442, 6, 0xAE06_3569_F411_FCF7),
  (.quartile, 20, 482, 5, 0xC8A7_59C9_9517_685A),
  (.quartile, 21, 509, 7, 0x8AAA_346A_5ABA_4211),
  (.quartile, 22, 565, 4, 0xE084_4944_9A25_09C9),
  (.quartile, 23, 611, 4, 0xB0AE_81EC_DC15_4379),
  (.quartile, 24, 661, 3, 0x87BA_5D2E_B8FD_5555),
  (.quartile, 25, 715, 4, 0xA018_8090_1EC7_7AFF),
  (.quartile, 26, 751, 6, 0xC821_0842_79C8_356B),
  (.quartile, 27, 805, 6, 0x6AB8_0164_DB76_89B7),
  (.quartile, 28, 868, 2, 0x9227_EA35_30A0_611A),
  (.quartile, 29, 908, 4, 0x6ED2_3332_DF17_7B4A),
  (.quartile, 30, 982, 4, 0x0D0D_EFBD_3FA7_5326),
  (.quartile, 31, 1030, 2, 0x2F54_8C40_5768_E1DC),
  (.quartile, 32, 1112, 6, 0x511D_75B1_3FCF_93D8),
  (.quartile, 33, 1168, 4, 0x434F_7E41_A4E7_C170),
  (.quartile, 34, 1228, 7, 0x1E71_862D_57E7_5E63),
  (.quartile, 35, 1283, 6, 0x97BC_DDF9_410F_EA49),
  (.quartile, 36, 1351, 4, 0x05C9_C0E3_8041_6575),
  (.quartile, 37, 1423, 3, 0x2F00_A6B2_A084_32B3),
  (.quartile, 38, 1499, 4, 0xEAAA_AC0B_2417_C8E9),
  (.quartile, 39, 1579, 2, 0x151E_61AD_9D55_CC6D),
  (.quartile, 40, 1663, 4, 0x6A4A_5DE5_ABD1_88ED),
  (.high, 1, 7, 5, 0x94F0_2584_54DC_5D19),
  (.high, 2, 14, 7, 0x3BDC_2DF4_662F_5003),
  (.high, 3, 24, 2, 0x98FC_32FC_986E_30A4),
  (.high, 4, 34, 5, 0xA014_A4CA_5315_443D),
  (.high, 5, 44, 4, 0x97FC_5913_8C04_4E37),
  (.high, 6, 58, 6, 0x7DDA_288D_13AD_E181),
  (.high, 7, 64, 3, 0xA99F_1F2E_88BD_7091),
  (.high, 8, 84, 5, 0x5C87_C19C_84D4_8CDA),
  (.high, 9, 98, 2, 0x7D9D_74F0_CE00_2EC7),
  (.high, 10, 119, 5, 0x95BC_49F6_B901_2F43),
  (.high, 11, 137, 2, 0x5D1C_1D5D_D68B_6657),
  (.high, 12, 155, 3, 0x22DE_E43E_44A0_131C),
  (.high, 13, 177, 2, 0xB5F9_34FA_AFE4_F977),
  (.high, 14, 194, 6, 0x1BCA_2599_9CE0_1E71),
  (.high, 15, 220, 7, 0xDCB5_0335_BB4C_0E66),
  (.high, 16, 250, 0, 0x1702_A384_2D9D_F05B),
  (.high, 17, 280, 3, 0x4549_E691_F187_E1AF),
  (.high, 18, 310, 4, 0x116B_AADD_5851_69E0),
  (.high, 19, 338, 2, 0x50D3_6404_C06C_7293),
  (.high, 20, 382, 4, 0x5D1A_DAC5_E5AD_557B),
  (.high, 21, 403, 4, 0x7CD2_73AD_CD5A_75C7),
  (.high, 22, 439, 4, 0xE2DD_3CF0_6513_FED5),
  (.high, 23, 461, 4, 0x3D4C_D3FF_533B_A48B),
  (.high, 24, 511, 1, 0xDEC8_66F1_3CF8_AB94),
  (.high, 25, 535, 4, 0xF0AB_4C90_456F_5797),
  (.high, 26, 593, 4, 0xCF44_65DE_D70F_96D3),
  (.high, 27, 625, 3, 0x5FB6_69B6_82E7_72ED),
  (.high, 28, 658, 1, 0x1A2E_FFB2_04C8_ACFC),
  (.high, 29, 698, 7, 0x70EB_DDC0_97F7_BC47),
  (.high, 30, 742, 2, 0xF0F4_33D4_AAE4_760D),
  (.high, 31, 790, 7, 0xC283_601A_222A_5384),
  (.high, 32, 842, 6, 0x4416_9FBC_81C1_F610),
  (.high, 33, 898, 7, 0xAB97_E704_932E_A2C1),
  (.high, 34, 958, 1, 0xA65C_3166_8D44_792A),
  (.high, 35, 983, 5, 0xF463_3B7A_B10E_2B88),
  (.high, 36, 1051, 1, 0x986B_E207_5742_7034),
  (.high, 37, 1093, 4, 0x85EE_B46A_BE47_DF93),
  (.high, 38, 1139, 2, 0xEEB8_1CC4_33BF_3FD7),
  (.high, 39, 1219, 3, 0x57F4_10CA_1F9D_C9AC),
  (.high, 40, 1273, 4, 0x21F8_E113_B4FD_14F1),
]
