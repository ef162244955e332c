import BackofficeCore
import Foundation

/// A record that is no longer there when a form is sent: deleted since the form was opened (in
/// another tab, or by someone else). Answered with 404, like any record that is not found, but
/// saying what happened and listing what was typed, so nothing is lost.
struct RecordGonePage: PageView {
  var heading: String
  var message: String
  /// The submitted values, label first, in form order; empty ones are left out.
  var typed: [(label: String, value: String)] = []
  var typedIntro = L("conflict.what_you_typed")
  var back: (href: String, label: String)
  var section: NavSection?

  var title: String { heading }

  func content(context: PageContext) -> HTMLNode {
    let shown = typed.filter { !$0.value.trimmingCharacters(in: .whitespaces).isEmpty }
    return H.div(
      [.class("record-gone")],
      [
        H.h1(heading),
        H.div([.class("form-error"), .role("alert")], [H.text(message)]),
        shown.isEmpty
          ? H.empty
          : H.div(
            [.class("card")],
            [
              H.p([], typedIntro),
              H.dl(
                [.class("facts")],
                shown.flatMap { item in
                  [H.dt([], [H.text(item.label)]), H.dd([], [H.text(item.value)])]
                }),
            ]),
        H.a(back.href, [.class("button")], text: back.label),
      ])
  }
}
