import Vapor

struct ErrorPageView: PageView {
  var status: HTTPResponseStatus
  var message: String

  var title: String { status.code == 404 ? "Page not found" : "Error \(status.code)" }

  func content(context: PageContext) -> HTMLNode {
    let heading: String
    let advice: String
    switch status.code {
    case 404:
      heading = "Page not found"
      advice = "The page does not exist, or it belongs to another account."
    case 403:
      heading = "Not allowed"
      advice = message
    case 500...:
      heading = "Something went wrong"
      advice = "The error has been logged. Please try again in a moment."
    default:
      heading = "That did not work"
      advice = message
    }
    return H.div(
      [.class("error-page")],
      [
        H.p([.class("error-code")], "\(status.code)"),
        H.h1(heading),
        H.p([], advice),
        H.a(Routes.home.href(), [.class("button")], text: "Go to the overview"),
      ])
  }
}
