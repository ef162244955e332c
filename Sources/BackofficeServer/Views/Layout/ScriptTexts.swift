import BackofficeCore
import Foundation

/// The catalogue entries the browser scripts show (keys starting `js.`), as the JSON every
/// page carries in `<script type="application/json" id="ui-text">`. Built once per language.
enum ScriptTexts {
  static let prefix = "js."

  static func json(_ language: UILanguage) -> String {
    switch language {
    case .en: english
    case .uk: ukrainian
    }
  }

  private static let english = build(.en)
  private static let ukrainian = build(.uk)

  static func build(_ language: UILanguage) -> String {
    var object: [String: Any] = [:]
    for (key, entry) in language.catalogue.entries where key.hasPrefix(prefix) {
      switch entry {
      case .text(let text): object[String(key.dropFirst(prefix.count))] = text
      case .plural(let forms): object[String(key.dropFirst(prefix.count))] = forms
      }
    }
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    // Inside <script> nothing is unescaped, so "<" is written as a JSON escape: no text can
    // end the element or open a comment.
    return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
  }
}
