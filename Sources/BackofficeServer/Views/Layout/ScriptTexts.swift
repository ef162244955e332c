import BackofficeCore
import Foundation
import NIOConcurrencyHelpers

/// The catalogue entries the browser scripts show (keys starting `js.`), as the JSON a page
/// carries in `<script type="application/json" id="ui-text">`: the shared ones (`js.app.`)
/// and those of the page's own scripts, built once per language and set of scripts.
enum ScriptTexts {
  static let prefix = "js."

  /// The key prefixes a page script (and the modules it imports) reads.
  static func prefixes(for scripts: [String]) -> [String] {
    ["js.app."]
      + scripts.compactMap { script in
        switch script {
        case "products.js": "js.products."
        case "expenses.js": "js.expenses."
        case "imports.js": "js.imports."
        case "ad-payments.js": "js.ad_payments."
        case "marketing-plans.js": "js.marketing."
        case "fundraisers.js": "js.fundraisers."
        default: nil
        }
      }
  }

  private static let built = NIOLockedValueBox<[String: String]>([:])

  static func json(_ language: UILanguage, scripts: [String] = []) -> String {
    let wanted = prefixes(for: scripts)
    let key = language.rawValue + " " + wanted.joined(separator: " ")
    if let done = built.withLockedValue({ $0[key] }) { return done }
    let made = build(language, prefixes: wanted)
    built.withLockedValue { $0[key] = made }
    return made
  }

  static func build(_ language: UILanguage, prefixes: [String]? = nil) -> String {
    var object: [String: Any] = [:]
    for (key, entry) in language.catalogue.entries where key.hasPrefix(prefix) {
      if let prefixes, !prefixes.contains(where: { key.hasPrefix($0) }) { continue }
      let name = String(key.dropFirst(prefix.count))
      switch entry {
      case .text(let text): object[name] = text
      case .plural(let forms): object[name] = forms
      }
    }
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
      ?? Data("{}".utf8)
    // Inside <script> nothing is unescaped, so "<" is written as a JSON escape: no text can
    // end the element or open a comment.
    return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
  }
}
