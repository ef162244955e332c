import BackofficeCore
import Foundation

/// The hidden field that carries the version a form was opened at, so the server can tell a
/// save made from an old copy of the record.
enum VersionField {
  static let name = "version"

  static func hidden(_ version: Int) -> HTMLNode {
    H.input([.type("hidden"), .name(name), .value(String(version))])
  }

  /// The version a form sent; nil when it is missing or not a number (a page opened before
  /// records had versions), which counts as stale.
  static func parse(_ text: String?) -> Int? {
    text.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 > 0 ? $0 : nil }
  }
}

/// "Saved now: …": what the record holds now, shown under a field whose typed value differs
/// from it when a save was refused because the record changed meanwhile.
struct SavedValue: Sendable, Equatable {
  var text: String
  var label = L("conflict.saved_now")
  /// Shown for an empty saved value, so "nothing" is visible.
  var empty = L("conflict.empty")

  func render(id: String) -> HTMLNode {
    H.p(
      [.class("field-saved"), .id(id)],
      [
        H.span([.class("field-saved-label")], label), H.text(" "),
        H.strong([], [H.text(text.isEmpty ? empty : text)]),
      ])
  }

  /// The saved values of the fields whose typed value differs, keyed like the inputs. Values
  /// are compared without surrounding spaces; `same(name, typed, saved)` may say that two
  /// spellings mean the same value ("12.5" and "12.50").
  static func differing(
    typed: [String: String], saved: [String: String],
    same: (String, String, String) -> Bool = { _, _, _ in false }
  ) -> [String: String] {
    var out: [String: String] = [:]
    for (name, value) in saved {
      let typedValue = (typed[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
      let savedValue = value.trimmingCharacters(in: .whitespacesAndNewlines)
      if typedValue != savedValue, !same(name, typedValue, savedValue) { out[name] = value }
    }
    return out
  }
}

/// The notice above a form sent back because the record changed since it was opened: what
/// happened, that nothing typed is lost, and how to keep it.
func conflictNotice(_ message: String) -> HTMLNode {
  H.div(
    [.class("form-error conflict-notice"), .id("conflict-notice"), .role("alert")],
    [H.text(message)])
}
