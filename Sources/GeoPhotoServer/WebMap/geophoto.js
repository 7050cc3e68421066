'use strict';
(function () {
  const config = JSON.parse(document.getElementById('gp-config').textContent);
  // The API's paths, from the server's route table (`{id}` filled in here).
  function endpoint(name, id) { return config.endpoints[name].replace('{id}', String(id)); }
  // The API's token, when the server has one: asked for once (on the first 401) and kept
  // for this browser tab only.
  let token = sessionStorage.getItem('geophoto-token') || '';
  // A shared link (?share=TOKEN) opens the map of what it shares, and nothing else.
  const shareToken = new URLSearchParams(location.search).get('share') || '';
  if (/^[A-Za-z0-9_-]{43}$/.test(shareToken)) {
    token = shareToken;
    document.body.classList.add('gp-shared');
  }
  const shared = document.body.classList.contains('gp-shared');
  let asking = null;
  function askForToken(wrong) {
    if (shared) {
      // A link cannot be given another token: it has ended.
      document.getElementById('gp-title').hidden = false;
      document.getElementById('gp-title-name').textContent = 'This link has expired or was revoked.';
      return new Promise(() => {});
    }
    if (asking) { return asking; }
    const form = document.getElementById('gp-token');
    document.getElementById('gp-token-wrong').hidden = !wrong;
    form.hidden = false;
    form.elements.token.focus();
    asking = new Promise((resolve) => {
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        token = form.elements.token.value.trim();
        sessionStorage.setItem('geophoto-token', token);
        form.hidden = true;
        asking = null;
        resolve();
      }, { once: true });
    });
    return asking;
  }
  // Every request of the API goes through here: with the token, asked for again when refused.
  async function api(path, init = {}) {
    for (let attempt = 0; ; attempt++) {
      const headers = Object.assign({}, init.headers || {}, token ? { Authorization: 'Bearer ' + token } : {});
      const response = await fetch(path, Object.assign({}, init, { headers }));
      if (response.status !== 401 || attempt >= 5) { return response; }
      await askForToken(attempt > 0 || token !== '');
    }
  }
  // A thumbnail of the API: with the token, fetched when it comes into view and shown
  // from memory (an <img> cannot send the token), the fetches of pins a new view replaced
  // cancelled; other pictures (and every picture without a token) loaded lazily as they are.
  // `still` says whether the picture is still wanted when it arrives (the viewer moved on).
  let pictures = new AbortController();
  const inSight = 'IntersectionObserver' in window ? new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) { continue; }
      inSight.unobserve(entry.target);
      entry.target.dispatchEvent(new Event('gp-load'));
    }
  }, { rootMargin: '200px' }) : null;
  // Pictures outside the map (`ownView` false: the Unplaced list) are not cancelled by a new view.
  function setImage(img, url, still = () => true, ownView = true) {
    if (!url) { return; }
    img.loading = 'lazy';
    if (!url.startsWith('/') || url.startsWith('//') || !token) { img.src = url; return; }
    const signal = ownView ? pictures.signal : undefined;
    const load = async () => {
      try {
        const response = await fetch(url, { headers: { Authorization: 'Bearer ' + token }, signal });
        if (!response.ok || !still()) { return; }
        const shown = URL.createObjectURL(await response.blob());
        img.addEventListener('load', () => URL.revokeObjectURL(shown), { once: true });
        img.src = shown;
      } catch (e) { /* cancelled by a new view */ }
    };
    if (inSight && img.isConnected) {
      img.addEventListener('gp-load', load, { once: true });
      inSight.observe(img);
    } else {
      load();
    }
  }
  const map = L.map('map', { worldCopyJump: true });
  // The view lives in the URL's hash (#map=zoom/lat/lon), so a reload or a shared link shows
  // the same map; without one the page fits every photo.
  const viewInURL = /^#map=(\d{1,2})\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)$/.exec(location.hash);
  const hashView = viewInURL && +viewInURL[1] <= 19 && Math.abs(+viewInURL[2]) <= 90 &&
    Math.abs(+viewInURL[3]) <= 180 ? { zoom: +viewInURL[1], center: [+viewInURL[2], +viewInURL[3]] } : null;
  if (hashView) { map.setView(hashView.center, hashView.zoom); }
  else {
    map.setView([20, 0], 2);
    // Where the photos are comes from the API (the page itself says nothing of them).
    api(endpoint('status')).then((r) => r.ok ? r.json() : null).then((status) => {
      const b = status && status.bounds;
      // A trip or a place chosen in the URL fits the map to itself.
      const chosen = new URLSearchParams(location.search);
      if (!b || location.hash || chosen.get('trip') || chosen.get('in') || shared || document.body.dataset.fitted) {
        return;
      }
      // Clear of the controls above and of the panel on the right, where it is shown.
      const panel = window.innerWidth > 700 ? 300 : 30;
      map.fitBounds([[b.south, b.west], [b.north, b.east]],
        { paddingTopLeft: [30, 60], paddingBottomRight: [panel, 30], maxZoom: 16 });
    });
  }
  L.control.scale({ position: 'bottomleft' }).addTo(map);
  function keepView() {
    const c = map.getCenter();
    const hash = '#map=' + map.getZoom() + '/' + c.lat.toFixed(5) + '/' + c.lng.toFixed(5);
    history.replaceState(null, '', location.pathname + location.search + hash);
  }
  // The basemap follows the system's light or dark mode (geophoto's own tiles have both).
  if (config.tiles) {
    const dark = window.matchMedia('(prefers-color-scheme: dark)');
    const tiles = L.tileLayer(dark.matches ? config.darkTiles : config.tiles,
      { attribution: config.attribution, maxZoom: 19 }).addTo(map);
    dark.addEventListener('change', () => tiles.setUrl(dark.matches ? config.darkTiles : config.tiles));
  }
  const layer = L.layerGroup().addTo(map);
  const escape = (text) => String(text == null ? '' : text).replace(/[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  let generation = 0;

  // The date range and the search box drive the API's since, until and text, and live in
  // the page URL (?since=&until=&text=), so a filtered view can be bookmarked and shared.
  const form = document.getElementById('gp-filter');
  const page = new URLSearchParams(location.search);
  const filterNames = ['since', 'until', 'text'];
  for (const name of filterNames) { if (page.get(name)) { form.elements[name].value = page.get(name); } }
  // A place chosen in the Places panel (?in=JP/Kyoto) and a trip chosen in the Trips panel
  // (?trip=ID) filter the map too: the place by the API's place filter, the trip by its
  // first and last instants (its photos, and no others, were taken then).
  let placeChosen = page.get('in') || '';
  let tripChosen = null;
  // The trip the URL names, until it is loaded.
  let tripPending = /^[a-z0-9]{1,32}$/.test(page.get('trip') || '') ? page.get('trip') : null;
  function filterQuery(options = {}) {
    const q = new URLSearchParams();
    if (tripChosen && !options.withoutTrip) {
      q.set('source', 'local');
      q.set('since', tripChosen.startTime);
      q.set('until', tripChosen.endTime);
      return q;
    }
    for (const name of filterNames) {
      const value = form.elements[name].value.trim();
      // Text without a letter or digit searches for nothing: it is left out, as the API would refuse it.
      if (value && (name !== 'text' || /[\p{L}\p{N}]/u.test(value))) { q.set(name, value); }
    }
    if (placeChosen && !options.withoutPlace) { q.set('place', placeChosen); }
    return q;
  }
  // The place last gone to stays in the URL too (?place=), so a shared link opens there.
  let placeShown = page.get('place') || '';
  function keepInURL() {
    const q = filterQuery({ withoutTrip: true, withoutPlace: true });
    if (placeShown) { q.set('place', placeShown); }
    if (placeChosen) { q.set('in', placeChosen); }
    if (tripChosen || tripPending) { q.set('trip', tripChosen ? tripChosen.id : tripPending); }
    if (panelShown !== 'view') { q.set('panel', panelShown); }
    if (shared) { q.set('share', shareToken); }
    const text = q.toString();
    history.replaceState(null, '', location.pathname + (text ? '?' + text : '') + location.hash);
  }
  function filterChanged() {
    keepInURL();
    refresh();
  }
  form.addEventListener('change', filterChanged);
  // Typing searches once the typist pauses.
  let typing;
  form.elements.text.addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(filterChanged, 300); });
  form.addEventListener('reset', () => setTimeout(filterChanged, 0));
  form.addEventListener('submit', (e) => { e.preventDefault(); filterChanged(); });

  // The place box asks the places endpoint (names read as `geophoto near PLACE` reads them) and goes
  // to the most populous match, listing the others; a name no place has offers the
  // spellings it may mean.
  const placeForm = document.getElementById('gp-place');
  const found = document.getElementById('gp-place-found');
  function goTo(place) {
    const zoom = place.population >= 1000000 ? 11 : place.population >= 100000 ? 12 : 13;
    map.setView([place.coordinate.latitude, place.coordinate.longitude], zoom);
    document.body.dataset.place = place.label;
  }
  function choice(text, action) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = text;
    button.addEventListener('click', action);
    found.appendChild(button);
  }
  async function searchPlace(name) {
    found.textContent = '';
    const query = name.trim();
    if (!query) { return; }
    const response = await api(endpoint('places') + '?q=' + encodeURIComponent(query) + '&limit=5');
    if (!response.ok) {
      found.textContent = response.status === 404 ? 'This server has no place names.' : 'No such place.';
      document.body.dataset.place = '';
      return;
    }
    const answer = await response.json();
    if (answer.places.length === 0) {
      document.body.dataset.place = '';
      found.textContent = answer.suggestions.length ? 'No place is called that. Did you mean:' : 'No place is called that.';
      for (const name of answer.suggestions) {
        choice(name, () => { placeForm.elements.place.value = name; searchPlace(name); });
      }
      return;
    }
    placeShown = query;
    keepInURL();
    goTo(answer.places[0]);
    for (const other of answer.places.slice(1)) { choice(other.label, () => goTo(other)); }
    if (answer.total > answer.places.length) {
      found.appendChild(document.createTextNode('and ' + (answer.total - answer.places.length) + ' more'));
    }
  }
  placeForm.addEventListener('submit', (e) => { e.preventDefault(); searchPlace(placeForm.elements.place.value); });
  // A view in the URL is where the link was made: the place only fills the box then.
  if (placeShown) { placeForm.elements.place.value = placeShown; if (!hashView) { searchPlace(placeShown); } }

  // The panel lists the photos in view, nearest the map's centre first (from the near endpoint, in
  // the circle round the view, then kept to the view), twenty more at a time.
  const list = document.getElementById('gp-list');
  const more = document.getElementById('gp-more');
  let listed = 20;
  const human = (m) => m < 999.5 ? Math.round(m) + ' m' : m < 9950 ? (m / 1000).toFixed(1) + ' km' :
    Math.round(m / 1000) + ' km';
  // The photos the panel lists, in its order: what the viewer's next and previous step through.
  let inView = [];
  async function refreshList(request) {
    const b = map.getBounds(), c = map.getCenter();
    // The circle round the view: to its farthest corner, or the whole Earth when the view
    // spans half of it or more.
    const corners = [b.getNorthEast(), b.getNorthWest(), b.getSouthEast(), b.getSouthWest()];
    const radius = b.getEast() - b.getWest() >= 180 ? 20000000 :
      Math.min(20000000, Math.ceil(Math.max(...corners.map((k) => map.distance(c, k)))) + 1);
    const lon = ((c.lng + 180) % 360 + 360) % 360 - 180;
    const filter = filterQuery().toString();
    const response = await api(endpoint('near') + '?lat=' + c.lat.toFixed(6) + '&lon=' + lon.toFixed(6) + '&limit=' +
      listed + '&radius=' + radius + (filter ? '&' + filter : ''));
    if (!response.ok || request !== generation) { return; }
    const answer = await response.json();
    list.textContent = '';
    inView = [];
    let shown = 0;
    for (const a of answer.annotations) {
      const at = L.latLng(a.coordinate.latitude, a.coordinate.longitude);
      if (!b.contains(at) && !b.contains(L.latLng(at.lat, at.lng + 360)) && !b.contains(L.latLng(at.lat, at.lng - 360))) {
        continue;
      }
      shown++;
      inView.push(a.id);
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = a.title;
      button.addEventListener('click', () => openViewer(a.id));
      const detail = document.createElement('small');
      detail.textContent = [a.subtitle, a.distance != null ? human(a.distance) : ''].filter(Boolean).join(' · ');
      item.append(button, detail);
      list.appendChild(item);
    }
    more.hidden = answer.annotations.length < listed || listed >= 1000;
    if (viewing !== null) { showPosition(); }
    document.body.dataset.listed = shown;
    document.body.dataset.center = c.lat.toFixed(6) + ',' + lon.toFixed(6);
    document.body.dataset.radius = radius;
  }
  more.addEventListener('click', () => { listed = Math.min(1000, listed + 20); refreshList(generation); });

  async function refresh() {
    const request = ++generation;
    // The pictures still coming for the view before this one are not wanted any more.
    pictures.abort();
    pictures = new AbortController();
    const b = map.getBounds();
    let west = b.getWest(), east = b.getEast();
    if (east - west >= 360) { west = -180; east = 180; }
    else {
      west = ((west + 180) % 360 + 360) % 360 - 180;
      east = ((east + 180) % 360 + 360) % 360 - 180;
    }
    const south = Math.max(-90, b.getSouth()), north = Math.min(90, b.getNorth());
    const zoom = Math.floor(map.getZoom());
    const bbox = [west, south, east, north].map((v) => v.toFixed(6)).join(',');
    const filter = filterQuery().toString();
    const response = await api(endpoint('annotations') + '?bbox=' + bbox + '&zoom=' + zoom + (filter ? '&' + filter : ''));
    if (!response.ok || request !== generation) { return; }
    const collection = await response.json();
    layer.clearLayers();
    let markers = 0, clusters = 0;
    // Pins go to the copy of the world in view (a view across the antimeridian shows 189°, not -171°).
    const middle = map.getCenter().lng;
    for (const feature of collection.features) {
      const [rawLon, lat] = feature.geometry.coordinates;
      const lon = rawLon + 360 * Math.round((middle - rawLon) / 360);
      const p = feature.properties;
      if (p.cluster) {
        clusters++;
        // A bubble: one of its photos, and the count.
        const picture = p.thumbnailURL ? '<img alt="">' : '';
        const icon = L.divIcon({ html: '<div>' + picture + '<span>' + escape(p.point_count_abbreviated) +
          '</span></div>', className: 'gp-cluster', iconSize: L.point(48, 48) });
        const marker = L.marker([lat, lon], { icon, title: p.point_count + ' photos', alt: p.point_count + ' photos' })
          .on('click', () => map.setView([lat, lon], p.expansion_zoom)).addTo(layer);
        const img = marker.getElement() && marker.getElement().querySelector('img');
        if (img) { setImage(img, p.thumbnailURL); }
      } else {
        markers++;
        // A photo: its thumbnail, small; a click (or Enter) opens the viewer.
        const video = p.mediaType === 'video';
        // An estimated position (placed by geotag) is drawn dashed, and says where it came from.
        const estimate = p.estimated ? ' · estimated' + (p.estimate && p.estimate.name ? ' from ' + p.estimate.name : '') : '';
        const icon = L.divIcon({ className: 'gp-marker' + (video ? ' gp-video' : '') + (p.estimated ? ' gp-estimated' : ''),
          iconSize: L.point(34, 34), html: p.thumbnailURL ? '<img alt="">' : '' });
        const marker = L.marker([lat, lon],
          { icon, title: p.title + (video ? ' · video' : '') + estimate, alt: p.title, draggable: edits })
          .on('click', () => openViewer(p.id)).addTo(layer);
        if (edits) {
          marker.on('dragend', () => {
            const to = marker.getLatLng();
            move([{ id: p.id, before: { coordinate: [lat, rawLon], estimated: !!p.estimated } }], to);
          });
        }
        const img = marker.getElement() && marker.getElement().querySelector('img');
        if (img) { setImage(img, p.thumbnailURL); }
      }
    }
    document.body.dataset.markers = markers;
    document.body.dataset.clusters = clusters;
    document.body.dataset.bbox = bbox;
    document.body.dataset.zoom = zoom;
    document.body.dataset.filter = filter;
    await refreshList(request);
    document.body.dataset.ready = '1';
  }
  // The viewer: the large thumbnail and the photo's details (the photo endpoint), with next and
  // previous through the photos in view; Escape closes it, the arrow keys step.
  const viewer = document.getElementById('gp-viewer');
  const viewerImage = document.getElementById('gp-viewer-image');
  let viewing = null, returnFocus = null, viewerPhoto = null;
  const mediaLength = (d) => Math.floor(d / 60) + ':' + String(Math.round(d % 60)).padStart(2, '0');
  async function openViewer(id) {
    if (viewer.hidden) { returnFocus = document.activeElement; }
    viewing = id;
    const response = await api(endpoint('photo', id));
    if (!response.ok || viewing !== id) { return; }
    const photo = await response.json();
    const large = photo.source === 'local' ? endpoint('thumbnail', photo.id) + '?size=1024' : photo.thumbnailURL;
    viewerImage.removeAttribute('src');
    setImage(viewerImage, large, () => viewing === id);
    viewerImage.alt = photo.title;
    document.getElementById('gp-viewer-title').textContent = photo.title;
    document.getElementById('gp-viewer-subtitle').textContent = photo.subtitle;
    const facts = document.getElementById('gp-viewer-facts');
    facts.textContent = '';
    const fact = (name, value) => {
      if (!value) { return; }
      const dt = document.createElement('dt'), dd = document.createElement('dd');
      dt.textContent = name;
      dd.textContent = value;
      facts.append(dt, dd);
    };
    fact('Taken', photo.takenAt ? photo.takenAt.replace('T', ' ') : '');
    fact('Camera', [photo.cameraMake, photo.cameraModel].filter(Boolean).join(' '));
    fact('Place', photo.place ? [photo.place.name, photo.place.admin1, photo.place.countryCode].filter(Boolean).join(', ') : '');
    fact('Video', photo.mediaType === 'video' && photo.duration != null ? mediaLength(photo.duration) : '');
    fact('Files', (photo.files || []).map((f) => f.name + (f.role && f.role !== 'primary' ? ' (' + f.role + ')' : '')).join(', '));
    fact('By', photo.attribution);
    fact('Licence', photo.license);
    const links = document.getElementById('gp-viewer-links');
    links.textContent = '';
    const link = (text, href) => {
      const a = document.createElement('a');
      a.href = href;
      a.textContent = text;
      a.rel = 'noopener';
      links.append(a, ' ');
    };
    if (photo.url) { link('Photo page', photo.url); }
    // A plain link cannot send the token: offered only when none is needed.
    if (!token) { link('Details (JSON)', endpoint('photo', photo.id)); }
    viewer.dataset.photo = photo.id;
    // An estimated or hand-placed position: accept it (placed by hand there) or remove it.
    const estimateButtons = document.getElementById('gp-viewer-estimate');
    estimateButtons.hidden = !(edits && photo.estimated);
    viewerPhoto = photo;
    showPosition();
    viewer.hidden = false;
    document.getElementById('gp-close').focus();
  }
  // Where the photo is among those in view (the list may arrive after the viewer opens).
  function showPosition() {
    const photos = stepping();
    const at = photos.indexOf(viewing);
    document.getElementById('gp-position').textContent = at >= 0 ? (at + 1) + ' of ' + photos.length : '';
    document.getElementById('gp-previous').disabled = photos.length < 2;
    document.getElementById('gp-next').disabled = photos.length < 2;
  }
  function stepping() { return tripPhotos.length ? tripPhotos : inView; }
  function step(by) {
    const photos = stepping();
    if (!photos.length) { return; }
    const at = photos.indexOf(viewing);
    openViewer(photos[((at < 0 ? 0 : at + by) % photos.length + photos.length) % photos.length]);
  }
  function closeViewer() {
    viewer.hidden = true;
    viewing = null;
    if (returnFocus && returnFocus.focus) { returnFocus.focus(); }
  }
  document.getElementById('gp-previous').addEventListener('click', () => step(-1));
  document.getElementById('gp-next').addEventListener('click', () => step(1));
  document.getElementById('gp-close').addEventListener('click', closeViewer);
  document.getElementById('gp-show').addEventListener('click', async () => {
    const response = await api(endpoint('photo', viewing));
    if (!response.ok) { return; }
    const photo = await response.json();
    closeViewer();
    map.setView([photo.coordinate.latitude, photo.coordinate.longitude], Math.max(map.getZoom(), 17));
  });
  viewer.addEventListener('click', (e) => { if (e.target === viewer) { closeViewer(); } });
  document.addEventListener('keydown', (e) => {
    if (viewer.hidden) { return; }
    if (e.key === 'Escape') { closeViewer(); }
    else if (e.key === 'ArrowLeft') { step(-1); }
    else if (e.key === 'ArrowRight') { step(1); }
  });
  // The page's own URL can open a photo (?photo=ID), as a shared link does.
  if (/^\d+$/.test(page.get('photo') || '')) { openViewer(+page.get('photo')); }

  // "Near me": the browser's position (asked only on a click), then the photos round it.
  document.getElementById('gp-near-me').addEventListener('click', () => {
    if (!navigator.geolocation) { found.textContent = 'This browser cannot tell where you are.'; return; }
    navigator.geolocation.getCurrentPosition(
      (position) => map.setView([position.coords.latitude, position.coords.longitude], 15),
      (error) => { found.textContent = 'Your position is not available: ' + error.message; },
      { enableHighAccuracy: false, timeout: 10000, maximumAge: 60000 });
  });


  // Placing and fixing photos, when the server takes edits (serve.allow_edits, with its
  // token): the Unplaced tab lists the photos without a position; drag one onto the map, or
  // select several (shift-click) and click the map. Pins can be dragged; estimated ones are
  // accepted or removed in the viewer. Every edit can be undone until the page is left.
  const edits = config.edits === true && !shared;
  const undoStack = [];
  const undoButton = document.getElementById('gp-undo');
  const selected = new Set();
  function locationPath(id) { return config.endpoints.location.replace('{id}', String(id)); }
  async function setLocation(id, latlng) {
    const lon = ((latlng.lng + 180) % 360 + 360) % 360 - 180;
    const response = await api(locationPath(id), { method: 'PUT', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ latitude: +latlng.lat.toFixed(7), longitude: +lon.toFixed(7) }) });
    return response.ok;
  }
  async function clearLocation(id) { return (await api(locationPath(id), { method: 'DELETE' })).ok; }
  function showUndo() {
    const last = undoStack[undoStack.length - 1];
    undoButton.hidden = !last;
    if (last) { undoButton.textContent = 'Undo ' + last.what; }
    document.body.dataset.undo = undoStack.length;
  }
  // Photos moved or placed: each remembers where it was (none, its file's, or an estimate).
  async function move(photos, latlng, what) {
    for (const photo of photos) { await setLocation(photo.id, latlng); }
    undoStack.push({ photos, what: what || (photos.length === 1 ? 'moving a photo' : 'moving ' + photos.length + ' photos') });
    showUndo();
    afterEdit();
  }
  undoButton.addEventListener('click', async () => {
    const last = undoStack.pop();
    if (!last) { return; }
    for (const photo of last.photos) {
      const before = photo.before;
      // No position, or the file's own: clearing gives it back; an estimate goes back where it was.
      if (!before || !before.estimated) { await clearLocation(photo.id); }
      else { await setLocation(photo.id, L.latLng(before.coordinate[0], before.coordinate[1])); }
    }
    showUndo();
    afterEdit();
  });
  function afterEdit() {
    refresh();
    if (panelShown === 'unplaced') { loadUnplaced(); }
  }
  async function loadUnplaced() {
    const listing = document.getElementById('gp-unplaced');
    const q = new URLSearchParams();
    for (const name of ['since', 'until']) { if (form.elements[name].value) { q.set(name, form.elements[name].value); } }
    q.set('limit', '200');
    const response = await api(endpoint('unplaced') + '?' + q.toString());
    if (!response.ok) { return; }
    const answer = await response.json();
    listing.textContent = '';
    document.getElementById('gp-unplaced-count').textContent =
      answer.total === 0 ? 'Every photo has a position.' : answer.total + ' photos without a position';
    for (const photo of answer.photos) {
      const item = document.createElement('li');
      item.draggable = true;
      item.dataset.photo = photo.id;
      item.setAttribute('aria-selected', String(selected.has(photo.id)));
      const img = document.createElement('img');
      img.alt = '';
      setImage(img, photo.thumbnailURL, () => true, false);
      const text = document.createElement('span');
      text.textContent = photo.title + (photo.takenAt ? ' · ' + photo.takenAt.slice(0, 10) : '');
      item.append(img, text);
      item.addEventListener('dragstart', (e) => {
        const ids = selected.has(photo.id) ? [...selected] : [photo.id];
        e.dataTransfer.setData('text/plain', ids.join(','));
      });
      item.addEventListener('click', (e) => {
        if (!e.shiftKey) { const was = selected.has(photo.id); selected.clear(); if (!was) { selected.add(photo.id); } }
        else if (selected.has(photo.id)) { selected.delete(photo.id); }
        else { selected.add(photo.id); }
        for (const other of listing.children) {
          other.setAttribute('aria-selected', String(selected.has(+other.dataset.photo)));
        }
        document.body.dataset.selected = selected.size;
      });
      listing.append(item);
    }
    document.body.dataset.unplaced = answer.total;
  }
  if (edits) {
    document.querySelector('#gp-tabs [data-tab="unplaced"]').hidden = false;
    const container = map.getContainer();
    container.addEventListener('dragover', (e) => e.preventDefault());
    container.addEventListener('drop', (e) => {
      e.preventDefault();
      const ids = (e.dataTransfer.getData('text/plain') || '').split(',').filter((v) => /^\d+$/.test(v)).map(Number);
      if (!ids.length) { return; }
      selected.clear();
      move(ids.map((id) => ({ id, before: null })), map.mouseEventToLatLng(e),
        ids.length === 1 ? 'placing a photo' : 'placing ' + ids.length + ' photos');
    });
    map.on('click', (e) => {
      if (!selected.size || panelShown !== 'unplaced') { return; }
      const ids = [...selected];
      selected.clear();
      move(ids.map((id) => ({ id, before: null })), e.latlng,
        ids.length === 1 ? 'placing a photo' : 'placing ' + ids.length + ' photos');
    });
    document.getElementById('gp-accept').addEventListener('click', () => {
      const p = viewerPhoto;
      if (!p) { return; }
      const at = L.latLng(p.coordinate.latitude, p.coordinate.longitude);
      move([{ id: p.id, before: { coordinate: [at.lat, at.lng], estimated: true } }], at, 'accepting a position');
      closeViewer();
    });
    document.getElementById('gp-unplace').addEventListener('click', async () => {
      const p = viewerPhoto;
      if (!p) { return; }
      await clearLocation(p.id);
      undoStack.push({ photos: [{ id: p.id, before: { coordinate: [p.coordinate.latitude, p.coordinate.longitude],
        estimated: true } }], what: 'removing a position' });
      showUndo();
      closeViewer();
      afterEdit();
    });
  }

  // The panels: photos in view, places visited, trips (?panel=places|trips keeps the choice).
  let panelShown = ['places', 'trips', 'unplaced'].includes(page.get('panel')) ? page.get('panel') : 'view';
  let tripPhotos = [];
  const routeLayer = L.layerGroup().addTo(map);
  function showPanel(name) {
    panelShown = name;
    for (const button of document.querySelectorAll('#gp-tabs button')) {
      button.setAttribute('aria-pressed', String(button.dataset.tab === name));
    }
    for (const tab of ['view', 'places', 'trips', 'unplaced']) {
      document.getElementById('gp-tab-' + tab).hidden = tab !== name;
    }
    document.body.dataset.panel = name;
    keepInURL();
    if (name === 'places') { loadPlaces(); }
    if (name === 'trips') { loadTrips(); }
    if (name === 'unplaced' && edits) { loadUnplaced(); }
  }
  for (const button of document.querySelectorAll('#gp-tabs button')) {
    button.addEventListener('click', () => showPanel(button.dataset.tab));
  }
  const dayText = (a, b) => a === b ? a : a + ' – ' + b;
  // Fits the map to a box (west > east across the antimeridian).
  function fitBox(w, s, e, n) {
    if (w > e) { e += 360; }
    const panel = window.innerWidth > 700 ? 300 : 30;
    document.body.dataset.fitted = '1';
    map.fitBounds([[s, w], [n, e]],
      { paddingTopLeft: [30, 60], paddingBottomRight: [panel, 30], maxZoom: 15, animate: false });
  }
  // Places visited: countries, regions and cities with their counts; choosing one fits the
  // map to it and filters the map to its photos.
  async function loadPlaces() {
    const tree = document.getElementById('gp-places');
    const filter = filterQuery({ withoutPlace: true }).toString();
    const response = await api(endpoint('visited') + (filter ? '?' + filter : ''));
    if (!response.ok) { return; }
    const answer = await response.json();
    tree.textContent = '';
    const add = (into, place) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.key = place.key;
      button.setAttribute('aria-pressed', String(place.key === placeChosen));
      button.textContent = place.name || '(' + place.level + ' without a name)';
      button.addEventListener('click', () => choosePlace(place.key === placeChosen ? null : place));
      const count = document.createElement('small');
      count.textContent = place.photos + ' · ' + dayText(place.first, place.last);
      item.append(button, count);
      if (place.children.length) {
        const children = document.createElement('ul');
        for (const child of place.children) { add(children, child); }
        item.append(children);
      }
      into.append(item);
    };
    for (const country of answer.places) { add(tree, country); }
    document.body.dataset.places = answer.places.length;
    // A place the URL named: the map fits it once.
    if (placeChosen && !placeFitted) {
      const find = (places) => {
        for (const p of places) { if (p.key === placeChosen) { return p; } const c = find(p.children); if (c) { return c; } }
        return null;
      };
      const place = find(answer.places);
      if (place) { placeFitted = true; fitBox(...place.bbox); }
    }
  }
  let placeFitted = false;
  function choosePlace(place) {
    placeFitted = true;
    placeChosen = place ? place.key : '';
    document.body.dataset.chosenPlace = placeChosen;
    keepInURL();
    if (place) { fitBox(...place.bbox); }
    loadPlaces();
    refresh();
  }
  // Trips: the trips found in the timeline; choosing one draws its route, filters the map
  // to its photos and lets the viewer step through them in order.
  async function loadTrips() {
    const list = document.getElementById('gp-trips');
    const filter = filterQuery({ withoutTrip: true }).toString();
    const response = await api(endpoint('trips') + (filter ? '?' + filter : ''));
    if (!response.ok) { return []; }
    const answer = await response.json();
    list.textContent = '';
    for (const trip of answer.trips) {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.trip = trip.id;
      button.setAttribute('aria-pressed', String(tripChosen !== null && trip.id === tripChosen.id));
      button.textContent = trip.name;
      button.addEventListener('click', () => chooseTrip(tripChosen && tripChosen.id === trip.id ? null : trip.id));
      const facts = document.createElement('small');
      facts.textContent = dayText(trip.start, trip.end) + ' · ' + trip.photos + ' photos · ' + human(trip.distance);
      item.append(button, facts);
      list.append(item);
    }
    document.body.dataset.trips = answer.trips.length;
    return answer.trips;
  }
  async function chooseTrip(id) {
    routeLayer.clearLayers();
    tripPhotos = [];
    const title = document.getElementById('gp-title');
    tripPending = null;
    if (!id) {
      tripChosen = null;
      title.hidden = true;
      document.body.dataset.trip = '';
      keepInURL();
      if (panelShown === 'trips') { loadTrips(); }
      refresh();
      return;
    }
    const response = await api(endpoint('trip', id));
    if (!response.ok) { return; }
    const answer = await response.json();
    const route = answer.features[0];
    const trip = route.properties;
    tripChosen = trip;
    tripPhotos = answer.features.slice(1).filter((f) => f.geometry).map((f) => f.id);
    // The route's parts, cut at the antimeridian, joined again on one copy of the world.
    let shift = 0, last = null;
    for (const line of route.geometry.coordinates) {
      if (last !== null && line.length && Math.abs(line[0][0] + shift - last) > 180) {
        shift += line[0][0] + shift < last ? 360 : -360;
      }
      L.polyline(line.map(([lon, lat]) => [lat, lon + shift]),
        { color: '#1971c2', weight: 4, opacity: .8, className: 'gp-route' }).addTo(routeLayer);
      if (line.length) { last = line[line.length - 1][0] + shift; }
    }
    document.getElementById('gp-title-name').textContent = trip.name;
    document.getElementById('gp-title-facts').textContent = dayText(trip.start, trip.end) + ' · ' + trip.photos +
      ' photos · ' + trip.places + (trip.places === 1 ? ' place' : ' places') + ' · ' + human(trip.distance);
    title.hidden = false;
    document.body.dataset.trip = trip.id;
    document.body.dataset.tripPhotos = tripPhotos.length;
    keepInURL();
    fitBox(...trip.bbox);
    if (panelShown === 'trips') { loadTrips(); }
    refresh();
  }
  document.getElementById('gp-title-step').addEventListener('click', () => {
    if (tripPhotos.length) { openViewer(tripPhotos[0]); }
  });
  document.getElementById('gp-title-close').addEventListener('click', () => chooseTrip(null));
  if (panelShown !== 'view') { showPanel(panelShown); }
  else if (placeChosen) { loadPlaces(); }
  if (shared) {
    // A shared link: its trip (or its photos) alone, with no other controls.
    loadTrips().then((trips) => {
      if (trips.length === 1) { chooseTrip(trips[0].id); }
      else {
        document.getElementById('gp-title-name').textContent = 'Shared photos';
        document.getElementById('gp-title').hidden = false;
      }
    });
  } else if (tripPending) {
    chooseTrip(tripPending);
  }

  map.on('moveend', () => { keepView(); listed = 20; refresh(); });
  refresh();
})();
