package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy in front of the real PostgreSQL, so a test can make the database unreachable (connections reset and
 * refused) or unresponsive (bytes held) and bring it back, without stopping the shared server.
 */
public final class TcpProxy implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final int port;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket server;
    private volatile boolean stalled;

    public TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress("127.0.0.1", 0));
        this.port = s.getLocalPort();
        listen(s);
    }

    public int port() {
        return port;
    }

    /** The database becomes unreachable: open connections are reset, new ones refused. */
    public synchronized void cut() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
    }

    /** The database is reachable again on the same port. */
    public synchronized void restore() throws IOException {
        stalled = false;
        if (server.isClosed()) {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress("127.0.0.1", port));
            listen(s);
        }
    }

    /** The database stops answering: connections stay open but no byte moves until {@link #restore()}. */
    public void stall() {
        stalled = true;
    }

    @Override
    public void close() throws IOException {
        cut();
    }

    private void listen(ServerSocket s) {
        this.server = s;
        Thread acceptor = new Thread(() -> {
            while (!s.isClosed()) {
                try {
                    Socket client = s.accept();
                    Socket upstream;
                    try {
                        upstream = new Socket(targetHost, targetPort);
                    } catch (IOException e) {
                        closeQuietly(client); // the target is down (restarting): the client sees a reset at once
                        continue;
                    }
                    sockets.add(client);
                    sockets.add(upstream);
                    pump(client, upstream);
                    pump(upstream, client);
                } catch (IOException e) {
                    // closed by cut(), or the upstream refused: the client sees a reset
                }
            }
        }, "tcp-proxy-accept-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    while (stalled && !from.isClosed()) {
                        Thread.onSpinWait();
                        Thread.sleep(5);
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // connection ended
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
