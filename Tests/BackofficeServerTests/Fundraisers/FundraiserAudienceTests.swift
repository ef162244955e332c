import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// What the fundraiser pages say to people who cannot change them: a viewer of the workspace,
/// and a donor on the public page.
@Suite("Fundraisers: viewers and donors", .ukrainian)
struct FundraiserAudienceTests {
  static func path(_ id: UUID) -> String { "/fundraisers/\(id.uuidString.lowercased())" }

  @Test func aViewerIsNotAskedToPressButtonsTheyDoNotHave() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      let withJar = try await team.owner.addFundraiser(purpose: "Дрон")
      let withoutJar = try await team.owner.addFundraiser(purpose: "Авто", jar: "")

      let owner = try await team.owner.get(Self.path(withJar))
      #expect(owner.body.contains("Даних з банки ще немає: натисніть «Оновити»."))
      #expect(owner.body.contains(">Оновити</button>"))
      let viewer = try await team.viewer.get(Self.path(withJar))
      #expect(viewer.status == .ok)
      #expect(!viewer.body.contains(">Оновити</button>"))
      #expect(!viewer.body.contains("натисніть"))
      #expect(viewer.body.contains("Даних з банки ще немає."))

      let ownerNoJar = try await team.owner.get(Self.path(withoutJar))
      #expect(ownerNoJar.body.contains("Додайте посилання на банку Monobank"))
      let viewerNoJar = try await team.viewer.get(Self.path(withoutJar))
      #expect(!viewerNoJar.body.contains("Додайте посилання"))
      #expect(!viewerNoJar.body.contains("Додати банку"))
      #expect(viewerNoJar.body.contains("До цього збору ще не додано банку Monobank."))
    }
  }

  @Test func donorsSeeTheAmountsBehindThePercentage() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .jar(amount: 620_000, goal: 2_000_000))
      try await withFundraiserApp(stub: stub) { t in
        let owner = t.client()
        try await owner.signUp()
        let id = try await owner.addFundraiser(target: "10 000")
        try await owner.post(Self.path(id, "/refresh"))
        let path = try await FundraiserPublicPageTests.publish(owner, id: id)

        // The page speaks the visitor's language.
        let ukrainian = try await t.client().get(path, headers: ["Accept-Language": "uk"])
        #expect(ukrainian.status == .ok)
        #expect(ukrainian.body.contains("Прогрес 62%"))
        #expect(ukrainian.body.contains("Зібрано: 6\u{00A0}200\u{00A0}грн."))
        #expect(ukrainian.body.contains("Ціль: 10\u{00A0}000\u{00A0}грн."))
        #expect(ukrainian.body.contains("Дані банки на"))
        let english = try await t.client().get(path, headers: ["Accept-Language": "en"])
        #expect(english.body.contains("Progress 62%"))
        #expect(english.body.contains("Collected: 6\u{00A0}200\u{00A0}UAH"))
        #expect(english.body.contains("Goal: 10\u{00A0}000\u{00A0}UAH"))
        #expect(english.body.contains("Jar data as of"))
      }
    }
  }

  static func path(_ id: UUID, _ suffix: String) -> String { path(id) + suffix }
}
