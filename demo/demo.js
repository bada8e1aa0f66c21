// The host page's side of the integration: react to a confirmed booking from the widget.
// Plain JavaScript served from /demo/demo.js, so the page needs no inline script under its CSP.
document.addEventListener('outing:booked', function (event) {
  var detail = event.detail;
  var thanks = document.getElementById('thanks');
  if (!thanks || !detail) return;
  thanks.textContent = 'Obrigado! Booking ' + detail.bookingNumber + ' is confirmed. See you there.';
  thanks.hidden = false;
});
