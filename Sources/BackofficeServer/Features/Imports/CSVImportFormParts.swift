import BackofficeCore

/// What the CSV import pages of products and ad payments share: the two choices, and the
/// answer to an upload that imported nothing.
extension CSVImport {
  /// How many of a refused upload's rows are named on the page.
  static let shownProblems = 100

  /// "Skip rows with errors" and "Import rows that are already present", as last chosen,
  /// each with the area's own hint.
  static func choiceFields(_ choices: Choices, skipErrorsHint: String, duplicatesHint: String)
    -> HTMLNode
  {
    H.group([
      checkbox(
        id: "skip-errors", name: "skip_errors", checked: choices.skipErrors,
        label: Message.skipErrors, hint: skipErrorsHint),
      checkbox(
        id: "import-duplicates", name: "import_duplicates", checked: choices.importDuplicates,
        label: Message.importDuplicates, hint: duplicatesHint),
    ])
  }

  private static func checkbox(
    id: String, name: String, checked: Bool, label: String, hint: String
  ) -> HTMLNode {
    H.div(
      [.class("field-check")],
      [
        H.input(
          [.type("checkbox"), .id("field-\(id)"), .name(name), .value("on")]
            + (checked ? [.checked] : []) + [.aria(.describedby, "field-\(id)-hint")]),
        H.label([.`for`("field-\(id)")], [H.text(label)]),
        H.p([.class("hint"), .id("field-\(id)-hint")], hint),
      ])
  }

  /// Why the upload imported nothing, with the first rows' problems and how many more there
  /// are (`more` says it in the area's words).
  static func refusalNode(_ refusal: Refusal, more: (Int) -> String) -> HTMLNode {
    var problems = H.empty
    if !refusal.rows.isEmpty {
      let shown = refusal.rows.prefix(shownProblems).map { H.text($0) }
      problems = H.itemList([.class("problem-list")], Array(shown))
      if refusal.rows.count > shownProblems {
        problems = H.group([problems, H.p([], more(refusal.rows.count - shownProblems))])
      }
    }
    return H.div(
      [.class("form-error import-report"), .role("alert")],
      [H.p([], refusal.message), problems])
  }
}
