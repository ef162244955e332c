import BackofficeCore
import Foundation

/// The page of one import: its progress while it runs, then what it did, or why it stopped
/// with a button to run it again.
///
/// Without JavaScript the page reloads itself every two seconds while the import runs (a
/// `<noscript>` refresh); with it, `imports.js` polls the job's status and updates the bar in
/// place, and loads the page once more at the end.
struct ImportJobShow: PageView {
  static let refreshSeconds = 2
  static let shownProblems = 100

  var state: ImportJobState

  var title: String {
    switch state.status {
    case .running: state.area.runningTitle
    case .done: state.area.finishedTitle
    case .failed: state.area.stoppedTitle
    }
  }

  var section: NavSection? { state.area.section }
  var scripts: [String] { state.status == .running ? ["imports.js"] : [] }
  var refreshWithoutScript: Int? { state.status == .running ? Self.refreshSeconds : nil }

  /// The sentence for the job's state: its progress, its result or why it stopped.
  static func sentence(_ state: ImportJobState) -> String {
    switch state.status {
    case .running: state.report.progress
    case .done: state.report.summary
    case .failed:
      [state.message, ImportMessages.stopped(state.report)].compactMap { $0 }
        .joined(separator: " ")
    }
  }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("import-page")],
      [
        H.a(
          state.area.list.href(), [.class("back-link")],
          text: "← \(state.area.section.label)"),
        H.h1(title),
        body(context: context),
      ])
  }

  func body(context: PageContext) -> HTMLNode {
    let report = state.report
    switch state.status {
    case .running:
      return H.div(
        [
          .class("card import-progress"), .id("import-progress"),
          .data("import-status", Routes.importJobStatus.href(id: state.id)),
        ],
        [
          H.progress(
            [
              .id("import-bar"), .max(String(max(1, report.total))),
              .value(String(report.done)), .aria(.labelledby, "import-text"),
            ], [H.text("\(report.percent)%")]),
          H.p(
            [.id("import-text"), .data("import-text", ""), .role("status")],
            [H.text(report.progress)]),
          H.p(
            [.class("hint")], L("imports.show.leave_hint")),
        ])
    case .done:
      return H.div(
        [.class("flash flash-success import-report"), .role("status")],
        [
          H.p([], report.summary),
          problemList(),
          H.div(
            [.class("form-actions")],
            [
              H.a(
                state.area.list.href(), [.class("button button-primary")],
                text: L("imports.show.go_to_list")),
              H.a(
                state.area.importForm.href(), [.class("button")],
                text: L("imports.show.import_another")),
            ]),
        ])
    case .failed:
      return H.div(
        [.class("form-error import-report"), .role("alert")],
        [
          H.p([], Self.sentence(state)),
          postForm(
            action: Routes.importJobRetry.href(id: state.id), csrf: context.csrf,
            attributes: [.class("form-actions")],
            [
              H.button(L("imports.show.run_again"), [.class("button button-primary")]),
              H.a(
                state.area.list.href(), [.class("button")], text: L("imports.show.go_to_list")),
            ]),
        ])
    }
  }

  func problemList() -> HTMLNode {
    guard !state.problems.isEmpty else { return H.empty }
    let shown = state.problems.prefix(Self.shownProblems)
    let more = state.report.invalid - shown.count
    return H.group([
      H.itemList([.class("problem-list")], shown.map { H.text($0) }),
      more > 0 ? H.p([], L("imports.show.more_problems", count: more)) : H.empty,
    ])
  }
}
