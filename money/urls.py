"""The night's money's pages: the money page (sales at the door, the 50/50, the count), its
live pot, the projector's 50/50 screen, the accounts as CSV, and the treasurer's sheet's
former address (the print page prints it: ``money.printing.DOCUMENT``), the licence's
report of the 50/50 and the raffles, and the club's pots carried from night to night."""

from django.urls import path

from money import views

app_name = "money"

urlpatterns = [
    path("drives/<slug:slug>/money/", views.money_page, name="page"),
    path("drives/<slug:slug>/money/pot", views.pot, name="pot"),
    path("drives/<slug:slug>/money/projector", views.projector, name="projector"),
    path("drives/<slug:slug>/money/accounts.csv", views.accounts_csv_view, name="csv"),
    path("drives/<slug:slug>/money/accounts.pdf", views.accounts_pdf_view, name="pdf"),
    path("drives/<slug:slug>/money/licence-report", views.licence_report, name="licence"),
    path("clubs/<slug:club>/licence-report", views.licence_period, name="licence-period"),
    path("drives/<slug:slug>/money/pots", views.pots, name="pots"),
]
