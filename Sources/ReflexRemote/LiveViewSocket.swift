import NIOCore
import NIOWebSocket
import ReflexCore
import ReflexSystem

/// A paired phone's live view over its WebSocket: each live-view picture as a binary message
/// (the JPEG), the HUD's values as a text message (JSON) whenever they change. Newest wins: a
/// phone that reads slower than the camera makes pictures gets the newest one when its
/// socket takes more, never a queue of old ones. The page's "ping" every few seconds keeps
/// the connection from being closed as idle.
final class LiveViewSocket: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let camera: any RemoteCamera
    private let latencies: LiveFrameLatencies
    private var watch: LiveWatch?
    private var statusTask: RepeatedTask?
    private var lastStatus = ""
    /// A picture is being written; the newest that came meanwhile waits here.
    private var writing = false
    private var waiting: LiveFrame?
    private var closing = false
    /// How often the HUD's values are looked at.
    static let statusInterval = TimeAmount.milliseconds(250)

    init(camera: any RemoteCamera, latencies: LiveFrameLatencies) {
        (self.camera, self.latencies) = (camera, latencies)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let loop = context.eventLoop
        watch = camera.watchLive { frame in
            loop.execute {
                let (socket, context) = bound.value
                socket.offer(frame, context)
            }
        }
        statusTask = loop.scheduleRepeatedTask(initialDelay: .zero, delay: Self.statusInterval) { _ in
            let (socket, context) = bound.value
            socket.sendStatusIfChanged(context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) { stop() }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .connectionClose: close(context, code: .normalClosure)
        case .ping:
            var payload = frame.unmaskedData
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: payload.readSlice(length: payload.readableBytes) ?? ByteBuffer())
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        default:
            // The page's "ping" text, or anything else: it only keeps the connection alive.
            break
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            close(context, code: .goingAway)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    private func offer(_ frame: LiveFrame, _ context: ChannelHandlerContext) {
        guard !closing else { return }
        if writing || !context.channel.isWritable {
            waiting = frame
            return
        }
        write(frame, context)
    }

    private func write(_ frame: LiveFrame, _ context: ChannelHandlerContext) {
        writing = true
        var buffer = context.channel.allocator.buffer(capacity: frame.jpeg.count)
        buffer.writeBytes(frame.jpeg)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let sensorTime = frame.sensorTime
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .binary, data: buffer))).whenComplete { _ in
            let (socket, context) = bound.value
            socket.latencies.record(monotonicSeconds() - sensorTime)
            socket.writing = false
            if let next = socket.waiting {
                socket.waiting = nil
                socket.offer(next, context)
            }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, !writing, let next = waiting {
            waiting = nil
            write(next, context)
        }
        context.fireChannelWritabilityChanged()
    }

    private func sendStatusIfChanged(_ context: ChannelHandlerContext) {
        guard !closing else { return }
        let status = camera.statusJSON()
        guard status != lastStatus else { return }
        lastStatus = status
        var buffer = context.channel.allocator.buffer(capacity: status.utf8.count)
        buffer.writeString(status)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: buffer)), promise: nil)
    }

    private func close(_ context: ChannelHandlerContext, code: WebSocketErrorCode) {
        guard !closing else { return }
        closing = true
        stop()
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    private func stop() {
        watch?.end()
        watch = nil
        statusTask?.cancel()
        statusTask = nil
    }
}
