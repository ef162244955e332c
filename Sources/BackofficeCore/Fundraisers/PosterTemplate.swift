/// One of the fifteen poster designs. The raw value is the template's number (1–15), which is
/// what gets stored and sent over the API; `name` is the stable identifier used in code and CSS.
public enum PosterTemplate: Int, CaseIterable, Codable, Hashable, Sendable, Identifiable {
  case blueLinear = 1
  case cyanMagentaRadial = 2
  case linearPurple = 3
  case goldBlackLinear = 4
  case pinkAngular = 5
  case tealPurpleRadial = 6
  case linearGreen = 7
  case angularYellowBlue = 8
  case linearSilverBlue = 9
  case radialRedBlack = 10
  case linearIndigoOrange = 11
  case linearEmeraldBlack = 12
  case radialAquaPurple = 13
  case radialMintIndigo = 14
  case linearCoralTeal = 15

  public var id: Int { rawValue }

  /// The template number, 1–15.
  public var number: Int { rawValue }

  /// Stable identifier, e.g. `"blueLinear"`.
  public var name: String {
    switch self {
    case .blueLinear: "blueLinear"
    case .cyanMagentaRadial: "cyanMagentaRadial"
    case .linearPurple: "linearPurple"
    case .goldBlackLinear: "goldBlackLinear"
    case .pinkAngular: "pinkAngular"
    case .tealPurpleRadial: "tealPurpleRadial"
    case .linearGreen: "linearGreen"
    case .angularYellowBlue: "angularYellowBlue"
    case .linearSilverBlue: "linearSilverBlue"
    case .radialRedBlack: "radialRedBlack"
    case .linearIndigoOrange: "linearIndigoOrange"
    case .linearEmeraldBlack: "linearEmeraldBlack"
    case .radialAquaPurple: "radialAquaPurple"
    case .radialMintIndigo: "radialMintIndigo"
    case .linearCoralTeal: "linearCoralTeal"
    }
  }

  /// Short title for the template picker, named after the background colours, in the
  /// interface language.
  public var title: String {
    switch self {
    case .blueLinear: L("fundraisers.template.blue_linear")
    case .cyanMagentaRadial: L("fundraisers.template.cyan_magenta_radial")
    case .linearPurple: L("fundraisers.template.linear_purple")
    case .goldBlackLinear: L("fundraisers.template.gold_black_linear")
    case .pinkAngular: L("fundraisers.template.pink_angular")
    case .tealPurpleRadial: L("fundraisers.template.teal_purple_radial")
    case .linearGreen: L("fundraisers.template.linear_green")
    case .angularYellowBlue: L("fundraisers.template.angular_yellow_blue")
    case .linearSilverBlue: L("fundraisers.template.linear_silver_blue")
    case .radialRedBlack: L("fundraisers.template.radial_red_black")
    case .linearIndigoOrange: L("fundraisers.template.linear_indigo_orange")
    case .linearEmeraldBlack: L("fundraisers.template.linear_emerald_black")
    case .radialAquaPurple: L("fundraisers.template.radial_aqua_purple")
    case .radialMintIndigo: L("fundraisers.template.radial_mint_indigo")
    case .linearCoralTeal: L("fundraisers.template.linear_coral_teal")
    }
  }

  /// Finds a template by its number (1–15).
  public init?(number: Int) {
    self.init(rawValue: number)
  }

  /// Finds a template by its stable `name`, e.g. `"linearGreen"`.
  public init?(name: String) {
    guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = match
  }
}

/// The output sizes a poster is rendered in, in pixels.
public enum PosterFormat: String, CaseIterable, Codable, Hashable, Sendable, Identifiable {
  /// Square feed post, 1080×1080 (the original app's only size).
  case post
  /// Portrait feed post, 1080×1350.
  case portrait
  /// Full-screen story, 1080×1920.
  case story

  public var id: String { rawValue }

  public var width: Int { 1080 }

  public var height: Int {
    switch self {
    case .post: 1080
    case .portrait: 1350
    case .story: 1920
    }
  }

  /// Pixels at the top that text must stay out of (story apps draw their own header there).
  public var safeTop: Int {
    switch self {
    case .story: 250
    case .post, .portrait: 0
    }
  }

  /// Pixels at the bottom that text must stay out of (story apps put the reply bar there).
  public var safeBottom: Int {
    switch self {
    case .story: 200
    case .post, .portrait: 0
    }
  }

  /// Label for format choosers and download buttons, in the interface language.
  public var title: String {
    switch self {
    case .post: L("fundraisers.format.post")
    case .portrait: L("fundraisers.format.portrait")
    case .story: L("fundraisers.format.story")
    }
  }
}
