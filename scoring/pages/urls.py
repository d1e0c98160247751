"""Pages of the night: the organizer's dashboard and actions (urls_organizer), and the live
pages: desk grid, table and couple pages, projector, standings, public results (urls_live)."""

from scoring.pages.urls_live import urlpatterns as live
from scoring.pages.urls_organizer import urlpatterns as organizer

app_name = "night"

urlpatterns = organizer + live
