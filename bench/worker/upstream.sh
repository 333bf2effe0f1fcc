# The upstream of the gateway benches (peers.sh, routes.sh): one nginx worker pinned to CPU 1, keep-alive without a
# request limit, no access log, all its files in one folder. Sourced; defines start_upstream.

# start_upstream DIR ADDR PORT SERVER: writes DIR/nginx.conf, whose server block listens on ADDR:PORT and holds the
# lines SERVER (locations, root), and starts nginx in a background job; the caller keeps $! to stop it.
start_upstream() {
  local dir=$1 addr=$2 port=$3 server=$4
  mkdir -p "$dir"
  cat > "$dir/nginx.conf" <<CONF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $dir/cb; proxy_temp_path $dir/p; fastcgi_temp_path $dir/f;
    uwsgi_temp_path $dir/u; scgi_temp_path $dir/s;
    server {
        listen $addr:$port;
        $server
    }
}
CONF
  taskset -c 1 nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" -g 'daemon off;' &
}
