// The date math of seeds 000 and 001, relative to the run's clock (--now, --timezone).
return {
  nextThursdayAt9: next(Thursday).at('9:00am'),
  lastTuesdayPlus23DaysAt9: last(Tuesday).plus(23, day).at('9:00am'),
  closeOfBusiness23DaysFromLastFriday: last(Friday).plus(23, days).closeofbusiness,
};
