import Foundation
import GeoPhotoCLI

exit(GeoPhotoCommand.run(Array(CommandLine.arguments.dropFirst())))
