// expected-error: cannot convert value of type 'String' to expected argument type 'Int32'
// A file system object source watches an open file descriptor, not a path: the file must be
// opened first (with O_EVTONLY, as KeyCatalog's _DispatchPathEvents does).
import Dispatch
import Foundation

func watch(_ path: String) -> any DispatchSourceFileSystemObject {
    DispatchSource.makeFileSystemObjectSource(fileDescriptor: path, eventMask: .write, queue: nil)
}
