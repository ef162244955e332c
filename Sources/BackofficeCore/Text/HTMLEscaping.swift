/// The one escaper for HTML, used by the pages and by the plan e-mail alike. (SVG posters have
/// their own, `SVGText`: XML allows fewer characters and writes `&apos;`.)
public enum HTMLEscaping {
  /// For element content: `&`, `<` and `>`.
  public static func text(_ string: String) -> String {
    escape(string, quotes: false)
  }

  /// For attribute values (and anywhere else): also `"` and `'`.
  public static func attribute(_ string: String) -> String {
    escape(string, quotes: true)
  }

  private static func escape(_ string: String, quotes: Bool) -> String {
    var out = ""
    out.reserveCapacity(string.utf8.count)
    for character in string {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"" where quotes: out += "&quot;"
      case "'" where quotes: out += "&#39;"
      default: out.append(character)
      }
    }
    return out
  }
}
