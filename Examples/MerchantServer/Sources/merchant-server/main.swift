import Foundation
import MerchantServer

exit(await Launch.main(arguments: Array(CommandLine.arguments.dropFirst()),
                       environment: ProcessInfo.processInfo.environment))
