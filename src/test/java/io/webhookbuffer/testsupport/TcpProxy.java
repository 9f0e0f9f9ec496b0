package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
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
    private volatile boolean repliesStalled;

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

    /**
     * Every open connection is closed, new ones are accepted at once (a restart that is already over), and held
     * bytes are dropped.
     */
    public synchronized void dropConnections() throws IOException {
        // Only the connections open now: a client that reconnects at once, while these close, gets a live one.
        List<Socket> open = new ArrayList<>(sockets);
        sockets.removeAll(open);
        for (Socket s : open) {
            s.close();
        }
        stalled = false;
        repliesStalled = false;
    }

    /** The database is reachable again on the same port. */
    public synchronized void restore() throws IOException {
        stalled = false;
        repliesStalled = false;
        if (server.isClosed()) {
            listen(rebind());
        }
    }

    /** The database stops answering: connections stay open but no byte moves until {@link #restore()}. */
    public void stall() {
        stalled = true;
    }

    /**
     * The database executes what it is sent, but its answers are held until {@link #restore()} or
     * {@link #dropConnections()}: what a client sees when a commit landed and the connection died before its answer.
     */
    public void stallReplies() {
        repliesStalled = true;
    }

    @Override
    public void close() throws IOException {
        cut();
    }

    /** The port again; right after {@link #cut()} the kernel may refuse it for a moment, so this tries for 2 s. */
    private ServerSocket rebind() throws IOException {
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (true) {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            try {
                s.bind(new InetSocketAddress("127.0.0.1", port));
                return s;
            } catch (BindException e) {
                s.close();
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
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
                    pump(client, upstream, false);
                    pump(upstream, client, true);
                } catch (IOException e) {
                    // closed by cut(), or the upstream refused: the client sees a reset
                }
            }
        }, "tcp-proxy-accept-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void pump(Socket from, Socket to, boolean replies) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    while ((stalled || replies && repliesStalled) && !from.isClosed()) {
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
