import Foundation
import Testing

@testable import BackofficeCore

@Suite("Poster contrast")
struct PosterContrastTests {
  @Test("WCAG arithmetic: black on white is 21:1, equal colours 1:1, #767676 on white ≈ 4.54")
  func arithmetic() {
    #expect(abs(PosterContrast.ratio(.black, .white) - 21) < 0.001)
    #expect(PosterContrast.ratio(.white, .white) == 1)
    let grey = PosterColor(hex: 0x767676)
    #expect(abs(PosterContrast.ratio(grey, .white) - 4.54) < 0.01)
    let half = PosterContrast.blend(PosterColor.black.withOpacity(0.5), over: .white)
    #expect(abs(half.red - 127.5) < 0.001)
  }

  @Test(
    "every text keeps 4.5:1 over its own background", arguments: PosterTemplate.allCases,
    PosterFormat.allCases)
  func everyTemplate(template: PosterTemplate, format: PosterFormat) {
    for (name, input) in PosterFixtures.layoutInputs {
      let layout = PosterRenderer.layout(input, template: template, format: format)
      for measured in PosterContrast.lowest(in: layout) {
        #expect(
          measured.ratio >= PosterContrast.minimumRatio,
          "\(name): \(measured.group) \(measured.role) at \((measured.ratio * 100).rounded() / 100):1"
        )
      }
    }
  }
}
