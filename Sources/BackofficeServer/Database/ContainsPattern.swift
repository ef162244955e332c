import SQLKit

/// `column LIKE '%needle%'` with `%`, `_` and `\` in the needle matched literally (URLs and
/// titles are full of `_` and `%`): the one LIKE of the app. Callers compare keys already
/// folded by `SearchNormalizer`, so the match is the same on SQLite (case-insensitive LIKE) and
/// PostgreSQL (case-sensitive LIKE).
struct ContainsPattern: SQLExpression {
  var column: String
  var table: String?
  var needle: String

  /// `text` with LIKE's wildcards and its escape character escaped.
  static func escaped(_ text: String) -> String {
    var out = ""
    for character in text {
      if character == "\\" || character == "%" || character == "_" { out.append("\\") }
      out.append(character)
    }
    return out
  }

  func serialize(to serializer: inout SQLSerializer) {
    SQLColumn(column, table: table).serialize(to: &serializer)
    serializer.write(" LIKE ")
    SQLBind("%" + Self.escaped(needle) + "%").serialize(to: &serializer)
    serializer.write(#" ESCAPE '\'"#)
  }
}
