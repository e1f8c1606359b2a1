import Foundation
import LifeboatCLI

exit(await LifeboatMain.run())
