import BackofficeCore
import Fluent
import Foundation

/// The fundraisers card of the overview page: how many, and how far they have got together.
struct FundraisersHome: Sendable {
  var count = 0
  /// Fundraisers with a goal and jar data, which the overall progress is made of.
  var measured = 0
  var collected: Decimal = 0
  var goal: Decimal = 0

  /// Everything collected ÷ everything aimed for, over the fundraisers that have both.
  var progress: FundraiserProgress? {
    measured > 0 ? FundraiserProgress(collected: collected, target: goal, jarGoal: nil) : nil
  }

  static func load(db: any Database, workspaceID: UUID) async throws -> FundraisersHome {
    let records = try await FundraiserStore(db: db, workspaceID: workspaceID).all()
    let states = try await JarSnapshots.states(for: records, on: db)
    var home = FundraisersHome(count: records.count)
    for record in records {
      guard let progress = states[record.id]?.progress(target: record.campaign.target)
      else { continue }
      home.measured += 1
      home.collected += progress.collected
      home.goal += progress.goal
    }
    return home
  }

  func card(canWrite: Bool) -> HTMLNode {
    let adding = count == 0 && canWrite
    return H.div(
      [.class("card"), .id("home-fundraisers")],
      [
        H.h2(L("nav.fundraisers")),
        H.div(
          [.class("fr-home-figures")],
          [
            H.p(
              [.class("home-figure")],
              [H.strong([], [H.text(String(count))]), H.text(" " + Self.noun(count))]),
            progress.map { progress in
              H.group([
                FundraiserFigures.progressBar(progress),
                H.p(
                  [.class("fr-collected")],
                  L(
                    "fundraisers.home.collected_of",
                    [
                      "collected": FundraiserFormat.amount(collected),
                      "goal": FundraiserFormat.amount(goal),
                    ])),
              ])
            } ?? H.empty,
          ]),
        count == 0
          ? H.p([.class("muted")], L("fundraisers.empty.title"))
          : H.empty,
        H.a(
          adding ? Routes.fundraiserNew.href() : Routes.fundraisers.href(), [.class("button")],
          text: adding ? L("fundraisers.new") : L("fundraisers.home.open")),
      ])
  }

  /// The word after the count: "1 fundraiser", "5 fundraisers"; "1 збір", "3 збори", "5 зборів".
  static func noun(_ count: Int) -> String {
    L("fundraisers.home.count_noun", count: count)
  }
}
