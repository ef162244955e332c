import Foundation

/// The language the interface's text is written in: every page, message, email, CSV header
/// and API error. How numbers and dates are written is the locale's business, not this.
public enum UILanguage: String, CaseIterable, Sendable, Codable {
  case en
  case uk

  /// The language text is produced in on the current task. The server sets it for each request
  /// from the account's setting (or the browser's `Accept-Language` before sign-in).
  @TaskLocal public static var current: UILanguage = .en

  /// The language's name in itself, for the picker: "English", "Українська".
  public var nativeName: String {
    switch self {
    case .en: "English"
    case .uk: "Українська"
    }
  }

  /// "uk", "uk-UA", "UK_ua" → `.uk`; nil for a language the interface is not written in.
  public init?(code: String) {
    let language = code.trimmingCharacters(in: .whitespaces).lowercased()
      .prefix { $0 != "-" && $0 != "_" }
    guard let found = Self(rawValue: String(language)) else { return nil }
    self = found
  }

  /// The first language of an `Accept-Language` header the interface is written in, honouring
  /// q-values; English when there is none.
  public static func bestMatch(acceptLanguage: String) -> UILanguage {
    AcceptLanguage.preferred(acceptLanguage).lazy.compactMap(UILanguage.init(code:)).first ?? .en
  }

  /// The plural category of a whole `count` by this language's rules (CLDR): English has
  /// "one" and "other", Ukrainian "one", "few" and "many".
  public func pluralCategory(_ count: Int) -> String {
    switch self {
    case .en: count == 1 ? "one" : "other"
    case .uk: Plural.ukrainian(count, one: "one", few: "few", many: "many")
    }
  }

  /// The categories a plural entry must give in this language.
  public var pluralCategories: [String] {
    switch self {
    case .en: ["one", "other"]
    case .uk: ["one", "few", "many"]
    }
  }

  /// This language's catalogue, read once from the bundled `Localization/<code>.json`.
  public var catalogue: Catalogue {
    switch self {
    case .en: Catalogue.english
    case .uk: Catalogue.ukrainian
    }
  }
}

/// One language's texts by key, as translators edit them: a flat JSON object whose values are
/// either a string or, for text that agrees with a number, an object of plural forms
/// (`{"one": "{count} product", "other": "{count} products"}`). `{name}` marks a value filled
/// in when the text is used.
public struct Catalogue: Sendable {
  public enum Entry: Sendable, Equatable {
    case text(String)
    case plural([String: String])

    /// Every form of the entry, for checks over the whole catalogue.
    public var forms: [String] {
      switch self {
      case .text(let text): [text]
      case .plural(let forms): forms.keys.sorted().compactMap { forms[$0] }
      }
    }
  }

  public let entries: [String: Entry]

  public struct Invalid: Error, CustomStringConvertible {
    public var description: String
  }

  public init(entries: [String: Entry]) {
    self.entries = entries
  }

  public init(json: Data) throws {
    guard let object = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
      throw Invalid(description: "a catalogue is one JSON object")
    }
    var entries: [String: Entry] = [:]
    for (key, value) in object {
      if let text = value as? String {
        entries[key] = .text(text)
      } else if let forms = value as? [String: String] {
        entries[key] = .plural(forms)
      } else {
        throw Invalid(description: "\(key): neither a text nor an object of plural forms")
      }
    }
    self.entries = entries
  }

  /// The text for `key` with its `{name}` marks filled from `values`; for a plural entry, the
  /// form `count` takes in `language`. Nil when the key is not in the catalogue.
  public func text(
    _ key: String, values: [String: String] = [:], count: Int? = nil, language: UILanguage
  ) -> String? {
    guard let entry = entries[key] else { return nil }
    let template: String
    switch entry {
    case .text(let text):
      template = text
    case .plural(let forms):
      let category = language.pluralCategory(count ?? 0)
      guard let form = forms[category] ?? forms["other"] ?? forms["many"] else { return nil }
      template = form
    }
    return Self.fill(template, values)
  }

  /// Replaces each `{name}` whose name is in `values`; other braces stay as they are. Works on
  /// UTF-8 bytes (braces are ASCII, and no byte of a multi-byte character is one): a page fills
  /// a text for every card, and searching by `Character` costs more than the rest of the fill.
  public static func fill(_ template: String, _ values: [String: String]) -> String {
    let utf8 = template.utf8
    guard !values.isEmpty, var open = utf8.firstIndex(of: UInt8(ascii: "{")) else {
      return template
    }
    var result = ""
    result.reserveCapacity(utf8.count + 32)
    var copied = utf8.startIndex
    while true {
      let afterOpen = utf8.index(after: open)
      var next = afterOpen
      if let close = utf8[afterOpen...].firstIndex(of: UInt8(ascii: "}")),
        let value = values[String(template[afterOpen..<close])]
      {
        result += template[copied..<open]
        result += value
        copied = utf8.index(after: close)
        next = copied
      }
      guard let found = utf8[next...].firstIndex(of: UInt8(ascii: "{")) else { break }
      open = found
    }
    result += template[copied...]
    return result
  }

  /// The `{name}` marks a text uses, for checking that both languages use the same ones.
  public static func placeholders(in text: String) -> Set<String> {
    var names = Set<String>()
    var rest = text[...]
    while let open = rest.firstIndex(of: "{") {
      let afterOpen = rest.index(after: open)
      guard let close = rest[afterOpen...].firstIndex(of: "}") else { break }
      let name = rest[afterOpen..<close]
      if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
        names.insert(String(name))
      }
      rest = rest[rest.index(after: close)...]
    }
    return names
  }

  static let english = bundled(.en)
  static let ukrainian = bundled(.uk)

  /// The catalogue shipped with the app. A missing or broken file is a broken build, so it
  /// stops here with the reason rather than showing keys.
  static func bundled(_ language: UILanguage) -> Catalogue {
    guard
      let url = Bundle.module.url(
        forResource: language.rawValue, withExtension: "json", subdirectory: "Localization")
    else { fatalError("Localization/\(language.rawValue).json is not in the bundle") }
    do {
      return try Catalogue(json: try Data(contentsOf: url))
    } catch {
      fatalError("Localization/\(language.rawValue).json: \(error)")
    }
  }
}

/// The text for `key` in the current task's interface language (`UILanguage.current`), with
/// `{name}` marks filled from `values`. A key missing from that language falls back to
/// English, then to the key itself (a test keeps both catalogues complete).
public func L(_ key: String, _ values: [String: String] = [:]) -> String {
  localized(key, values: values, count: nil)
}

/// The form of `key` that agrees with `count` in the interface language. `{count}` is filled
/// with the plain number unless `values` gives it (already grouped for the locale, say).
public func L(_ key: String, count: Int, _ values: [String: String] = [:]) -> String {
  var values = values
  if values["count"] == nil { values["count"] = String(count) }
  return localized(key, values: values, count: count)
}

private func localized(_ key: String, values: [String: String], count: Int?) -> String {
  let language = UILanguage.current
  return language.catalogue.text(key, values: values, count: count, language: language)
    ?? Catalogue.english.text(key, values: values, count: count, language: .en)
    ?? key
}
