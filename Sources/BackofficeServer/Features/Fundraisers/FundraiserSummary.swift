import BackofficeCore
import Foundation

/// What cards, the page of one fundraiser and the home card say about its money.
struct FundraiserSummary: Sendable {
  var id: UUID
  var purpose: String
  var template: PosterTemplate
  var target: Decimal?
  var jar: JarID?
  var showProgress: Bool
  var state: JarState
  var stage: FundraiserStage

  init(_ record: FundraiserRecord, id: UUID, state: JarState) {
    let campaign = record.campaign
    self.id = id
    self.purpose = campaign.purpose
    self.template = campaign.template
    self.target = campaign.target
    self.jar = campaign.jar
    self.showProgress = campaign.showProgress
    self.state = state
    self.stage = record.stage
  }

  var progress: FundraiserProgress? { state.progress(target: target) }
  /// The amount shown as "Goal" ("Ціль"): the target, else the jar's own goal.
  var goal: Decimal? { target ?? state.lastGood?.goal }
  var collected: Decimal? { state.lastGood?.amount }
  var closed: Bool { state.lastGood?.status == .closed }

  func posterHref(_ format: PosterFormat = .post) -> String {
    Routes.fundraiserPoster.href(id: id, query: ["format": format.rawValue])
  }
}

/// The money lines shared by cards and the fundraiser page.
enum FundraiserFigures {
  static func progressBar(_ progress: FundraiserProgress) -> HTMLNode {
    H.div(
      [.class("fr-progress")],
      [
        H.p([.class("fr-progress-label")], progress.label),
        H.progress(
          [
            .class("fr-progress-bar"), .max("100"),
            .value(String(min(100, max(0, progress.percent)))),
            .aria(.label, progress.label),
          ], [H.text("\(progress.percent)%")]),
      ])
  }

  /// The goal and the amount collected (from the last answer of the jar), wherever a
  /// percentage is shown: a percentage alone says nothing of the money.
  static func amounts(_ summary: FundraiserSummary) -> [HTMLNode] {
    var nodes: [HTMLNode] = []
    if let goal = summary.goal {
      nodes.append(
        H.p([.class("fr-goal")], L("fundraisers.goal", ["amount": FundraiserFormat.amount(goal)])))
    }
    if let collected = summary.collected {
      nodes.append(
        H.p(
          [.class("fr-collected")],
          L("fundraisers.collected", ["amount": FundraiserFormat.amount(collected)])))
    }
    return nodes
  }

  static func lines(_ summary: FundraiserSummary, detailed: Bool) -> [HTMLNode] {
    var nodes: [HTMLNode] = []
    if let progress = summary.progress { nodes.append(progressBar(progress)) }
    nodes += amounts(summary)
    if summary.closed {
      nodes.append(H.p([.class("fr-badge fr-closed")], JarStatus.closed.title))
    } else if detailed, summary.state.lastGood != nil, summary.stage == .active {
      nodes.append(H.p([.class("fr-badge fr-active")], JarStatus.active.title))
    }
    if let takenAt = summary.state.lastGoodAt {
      nodes.append(
        H.p(
          [.class("fr-meta")],
          [FundraiserFormat.withTime(L("fundraisers.figures.data_from"), takenAt)]))
    }
    if let error = summary.state.lastError {
      if detailed {
        nodes.append(
          H.p(
            [.class("fr-warn"), .role("status")],
            [
              H.text(L("fundraisers.figures.refresh_failed_because", ["error": error])),
              summary.state.lastAttemptAt.map { at in
                H.group([
                  H.text(" "), FundraiserFormat.withTime(L("fundraisers.figures.attempted"), at),
                ])
              } ?? H.empty,
              summary.state.lastGoodAt.map { at in
                H.group([
                  H.text(" "), FundraiserFormat.withTime(L("fundraisers.figures.showing_from"), at),
                ])
              } ?? H.text(" " + L("fundraisers.figures.no_data_yet")),
            ]))
      } else {
        nodes.append(H.p([.class("fr-warn")], L("fundraisers.figures.refresh_failed")))
      }
    }
    return nodes
  }
}
